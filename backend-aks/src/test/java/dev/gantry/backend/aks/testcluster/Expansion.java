package dev.gantry.backend.aks.testcluster;

import java.util.List;
import java.util.Map;

/**
 * The kubelet's {@code $(NAME)} expansion (k8s.io/kubernetes third_party/forked/golang/expansion): a defined
 * variable is replaced, an undefined one stays as written, {@code $$} becomes {@code $}, and a {@code $} before
 * anything else stays.
 */
final class Expansion {
    private Expansion() {
    }

    /** Expands {@code input}, looking names up in each context in turn. */
    static String expand(String input, List<Map<String, String>> contexts) {
        StringBuilder out = new StringBuilder();
        int checkpoint = 0;
        for (int cursor = 0; cursor < input.length(); cursor++) {
            if (input.charAt(cursor) == '$' && cursor + 1 < input.length()) {
                out.append(input, checkpoint, cursor);
                String rest = input.substring(cursor + 1);
                int advance;
                char next = rest.charAt(0);
                if (next == '$') {
                    out.append('$');
                    advance = 1;
                } else if (next == '(') {
                    int close = rest.indexOf(')');
                    if (close > 0) {
                        out.append(lookup(rest.substring(1, close), contexts));
                        advance = close + 1;
                    } else {
                        out.append("$(");
                        advance = 1;
                    }
                } else {
                    out.append('$').append(next);
                    advance = 1;
                }
                cursor += advance;
                checkpoint = cursor + 1;
            }
        }
        return out.append(input.substring(Math.min(checkpoint, input.length()))).toString();
    }

    private static String lookup(String name, List<Map<String, String>> contexts) {
        for (Map<String, String> context : contexts) {
            String value = context.get(name);
            if (value != null) {
                return value;
            }
        }
        return "$(" + name + ")";
    }
}
