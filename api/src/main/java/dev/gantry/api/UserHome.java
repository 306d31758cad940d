package dev.gantry.api;

import java.nio.file.Path;
import java.util.Map;

/**
 * The user's home directory as Unix tools read it: {@code $HOME} when it is set to an absolute path, else the
 * account's home from the password database (the JVM's {@code user.home}). A CI job or a container that sets
 * {@code HOME} gets its configuration, state, catalog cache and SSH keys from there, and {@code ~} in settings and
 * documentation means that directory.
 */
public final class UserHome {
    private UserHome() {
    }

    /**
     * The home directory by the given environment.
     *
     * @param environment the environment variables to read {@code HOME} from
     * @return {@code HOME} when it is set to an absolute path, else the JVM's {@code user.home}
     */
    public static Path of(Map<String, String> environment) {
        String home = environment.get("HOME");
        if (home != null && !home.isBlank()) {
            Path path = Path.of(home);
            if (path.isAbsolute()) {
                return path;
            }
        }
        return Path.of(System.getProperty("user.home"));
    }

    /**
     * The home directory of this process.
     *
     * @return {@link #of(Map)} of this process's environment
     */
    public static Path ofProcess() {
        return of(System.getenv());
    }

    /**
     * A path as settings write it, with the home directory for {@code ~}.
     *
     * @param text the path as written; {@code ~user} forms are not expanded
     * @param home the home directory
     * @return {@code text} with a leading {@code ~} or {@code ~/} replaced by {@code home}; other text as a path
     */
    public static Path expand(String text, Path home) {
        if (text.equals("~")) {
            return home;
        }
        if (text.startsWith("~/")) {
            return home.resolve(text.substring(2));
        }
        return Path.of(text);
    }
}
