package dev.gantry.backend.aks.internal;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A taint GPU pods tolerate, written {@code KEY[=VALUE]:EFFECT} as {@code kubectl taint} takes it
 * ({@code sku=gpu:NoSchedule}, {@code nvidia.com/gpu:NoSchedule}).
 *
 * @param key the taint's key
 * @param value its value; empty: any value (operator {@code Exists})
 * @param effect NoSchedule, PreferNoSchedule or NoExecute
 */
public record GpuToleration(String key, Optional<String> value, String effect) {
    static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    /** What AKS's documentation uses for GPU pools, and what the NVIDIA device plugin's examples tolerate. */
    static final List<String> DEFAULTS = List.of("sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule");

    public GpuToleration {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(effect, "effect");
    }

    /** The toleration written as {@code KEY[=VALUE]:EFFECT}, or an IllegalArgumentException saying what is wrong. */
    static GpuToleration parse(String text) {
        String item = text.strip();
        int colon = item.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("'" + item + "' has no ':EFFECT'; write KEY[=VALUE]:EFFECT, e.g. "
                    + "sku=gpu:NoSchedule");
        }
        String effect = item.substring(colon + 1);
        if (!EFFECTS.contains(effect)) {
            throw new IllegalArgumentException("'" + item + "': the effect must be one of " + String.join(", ",
                    EFFECTS) + ", got '" + effect + "'");
        }
        String taint = item.substring(0, colon);
        int eq = taint.indexOf('=');
        String key = eq < 0 ? taint : taint.substring(0, eq);
        Optional<String> value = eq < 0 ? Optional.empty() : Optional.of(taint.substring(eq + 1));
        if (!KubeSyntax.isQualifiedName(key)) {
            throw new IllegalArgumentException("'" + item + "': '" + key + "' is not a taint key (letters, digits, "
                    + "'-', '_', '.', with an optional DNS prefix and '/'); e.g. sku=gpu:NoSchedule");
        }
        if (value.isPresent() && !KubeSyntax.isLabelValue(value.get())) {
            throw new IllegalArgumentException("'" + item + "': '" + value.get() + "' is not a taint value (up to 63 "
                    + "letters, digits, '-', '_', '.'); e.g. sku=gpu:NoSchedule");
        }
        return new GpuToleration(key, value, effect);
    }

    @Override
    public String toString() {
        return key + value.map(v -> "=" + v).orElse("") + ":" + effect;
    }
}
