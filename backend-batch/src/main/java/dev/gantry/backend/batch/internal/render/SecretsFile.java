package dev.gantry.backend.batch.internal.render;

import dev.gantry.api.backend.Secret;
import java.util.Map;

/**
 * The text of the secrets file a task fetches as a resource file and the launcher loads with {@code .} and deletes:
 * one {@code export NAME='VALUE'} line per secret, each value in single quotes with every {@code '} written as
 * {@code '\''}, so that the shell gives it back byte for byte (newlines, {@code $}, backslashes included). It goes to
 * the secrets container only, never into a request to Batch. Names are the workload's secret names, which the spec
 * already restricts to letters, digits and {@code _}.
 */
public final class SecretsFile {
    private SecretsFile() {
    }

    public static String render(Map<String, Secret> secrets) {
        StringBuilder text = new StringBuilder();
        secrets.forEach((name, secret) -> {
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("'" + name + "' is not an environment variable name");
            }
            text.append("export ").append(name).append("='").append(secret.reveal().replace("'", "'\\''"))
                    .append("'\n");
        });
        return text.toString();
    }
}
