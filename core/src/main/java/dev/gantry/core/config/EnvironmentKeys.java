package dev.gantry.core.config;

import java.util.Collection;
import java.util.Locale;

/**
 * Turns the key part of {@code GANTRY_BACKENDS_<BACKEND>_<KEY>} into a setting key. {@code __} separates levels
 * (a dot), a level of digits is a list index, and single underscores join words in camelCase:
 * {@code RESOURCE_GROUP} is {@code resourceGroup}, {@code SSH__KEY_FILE} is {@code ssh.keyFile},
 * {@code HOSTS__0__ADDRESS} is {@code hosts[0].address}. When the file already has a key that differs only in case
 * and separators ({@code resource_group}), that key is overridden instead.
 */
final class EnvironmentKeys {
    private EnvironmentKeys() {
    }

    static String settingKey(String envKey, Collection<String> existing) {
        StringBuilder key = new StringBuilder();
        for (String level : envKey.split("__")) {
            if (level.isEmpty()) {
                continue;
            }
            if (level.chars().allMatch(Character::isDigit) && key.length() > 0) {
                key.append('[').append(Integer.parseInt(level)).append(']');
                continue;
            }
            if (key.length() > 0) {
                key.append('.');
            }
            key.append(camelCase(level));
        }
        String normalized = normalize(key.toString());
        return existing.stream().filter(k -> normalize(k).equals(normalized)).findFirst().orElse(key.toString());
    }

    private static String camelCase(String level) {
        StringBuilder out = new StringBuilder();
        for (String word : level.toLowerCase(Locale.ROOT).split("_")) {
            if (word.isEmpty()) {
                continue;
            }
            out.append(out.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return out.toString();
    }

    /** Lower case without '_' and '-', keeping dots and brackets so levels still have to line up. */
    private static String normalize(String key) {
        return key.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }
}
