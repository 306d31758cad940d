package dev.gantry;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** This Gantry's version as the build wrote it ({@code version.properties}); read once, on first use. */
final class BuildVersion {
    static final String VALUE = read();

    private BuildVersion() {
    }

    private static String read() {
        Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }
}
