package dev.gantry.backend.aks.internal.render;

import java.util.List;

/**
 * Text written into a container's command, arguments and environment values, where the kubelet expands
 * {@code $(NAME)} and turns {@code $$} into {@code $}: every {@code $} is written {@code $$}, so that each arrives
 * verbatim (an argument {@code $(MASTER_ADDR)} stays {@code $(MASTER_ADDR)}).
 */
public final class KubeText {
    private KubeText() {
    }

    public static String verbatim(String text) {
        return text.replace("$", "$$");
    }

    public static List<String> verbatim(List<String> texts) {
        return texts.stream().map(KubeText::verbatim).toList();
    }
}
