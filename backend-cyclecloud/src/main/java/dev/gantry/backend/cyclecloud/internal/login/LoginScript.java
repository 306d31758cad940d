package dev.gantry.backend.cyclecloud.internal.login;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * One of Gantry's fixed scripts for the login node: its text and the shell it is written for (bash where builtins
 * spare a process per job). A scheduler's script may be its own resource, or its own few lines followed by a part
 * both schedulers share (the claim that makes a submit happen once, the job records).
 *
 * @param name what error messages call it ({@code submit}, {@code status}, ...)
 * @param shell {@code sh} or {@code bash}
 * @param text the script
 */
public record LoginScript(String name, String shell, String text) {
    public LoginScript {
        Objects.requireNonNull(name, "name");
        if (!shell.equals("sh") && !shell.equals("bash")) {
            throw new IllegalArgumentException("a login script runs under sh or bash: " + shell);
        }
        Objects.requireNonNull(text, "text");
    }

    /**
     * A script made of resources, joined in order: each is read beside {@code owner} unless its name starts with
     * {@code login/}, which names one of the shared parts in this package.
     */
    public static LoginScript of(Class<?> owner, String name, String shell, String... resources) {
        StringBuilder text = new StringBuilder();
        for (String resource : resources) {
            text.append(resource.startsWith("login/") ? resource(LoginScript.class,
                    resource.substring("login/".length())) : resource(owner, resource));
        }
        return new LoginScript(name.toLowerCase(Locale.ROOT), shell, text.toString());
    }

    /** A resource of the backend's jar, as text; its absence is a broken build, not a user error. */
    public static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing beside " + owner.getName() + " in the "
                        + "gantry-backend-cyclecloud jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
