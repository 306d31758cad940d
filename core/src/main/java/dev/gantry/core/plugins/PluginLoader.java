package dev.gantry.core.plugins;

import dev.gantry.api.backend.BackendProvider;
import dev.gantry.model.InstalledBackend;
import dev.gantry.model.PluginFailure;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads backend plugins. A plugin is either one jar ({@code plugins/NAME.jar}, its dependencies shaded in) or a
 * directory of jars ({@code plugins/NAME/*.jar}: the plugin's jar and its own dependency jars). Each plugin gets a
 * class loader of its own whose parent shows only the JDK and Gantry's API ({@link ApiOnlyClassLoader}), and its
 * providers are those its own jars register for {@code ServiceLoader}. A plugin that cannot be read or whose
 * provider fails is a {@link PluginFailure} with its path and the reason; it never stops the others.
 */
public final class PluginLoader {
    private static final String JAR = ".jar";

    private final ClassLoader gantry;
    private ClassLoader api;

    /** Plugins see the API classes of {@code gantry}, the class loader that loaded Gantry. */
    public PluginLoader(ClassLoader gantry) {
        this.gantry = gantry;
    }

    /** What the plugins found in these places provide; a place that does not exist holds no plugin. */
    public Loaded load(List<Path> places) {
        return load(new PluginPlaces(places, List.of(), PluginDirectories.PATH_VARIABLE));
    }

    /**
     * What the plugins found in these places provide, in the order of the places, then of the names in each. A named
     * place that does not exist is a failure (a mistyped {@code GANTRY_PLUGIN_PATH} entry, say); any other place that
     * does not exist holds no plugin.
     */
    public Loaded load(PluginPlaces places) {
        List<InstalledBackend> backends = new ArrayList<>();
        List<PluginFailure> failures = new ArrayList<>();
        for (Path place : places.searched()) {
            if (places.named().contains(place) && !Files.exists(place)) {
                failures.add(new PluginFailure(place, "does not exist; " + places.namedBy()
                        + " names it: correct or remove the entry"));
                continue;
            }
            for (Path plugin : pluginsIn(place, failures)) {
                loadPlugin(plugin, backends, failures);
            }
        }
        return new Loaded(backends, failures);
    }

    /**
     * What a plugin directory holds; a missing place holds nothing. On the common path (no plugins) this is one
     * directory listing, or a failed look-up, and no class loader is made.
     */
    private static List<Path> pluginsIn(Path place, List<PluginFailure> failures) {
        if (Files.isRegularFile(place)) {
            return List.of(place);
        }
        if (!Files.isDirectory(place)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(place)) {
            return entries.filter(p -> Files.isDirectory(p) || isJar(p)).sorted().toList();
        } catch (IOException e) {
            failures.add(new PluginFailure(place, "cannot list the plugins directory: " + e));
            return List.of();
        }
    }

    private void loadPlugin(Path plugin, List<InstalledBackend> backends, List<PluginFailure> failures) {
        List<Path> jars;
        try {
            jars = jarsOf(plugin);
        } catch (IOException e) {
            failures.add(new PluginFailure(plugin, "cannot be read: " + e.getMessage()));
            return;
        }
        if (api == null) {
            api = ApiOnlyClassLoader.over(gantry); // made only when there is a plugin to load
        }
        URLClassLoader loader = new URLClassLoader("gantry-plugin " + plugin.getFileName(), urls(jars), api);
        List<InstalledBackend> found = new ArrayList<>();
        try {
            // only the plugin's own providers: none that a parent could show (there are none on the class path's
            // side, but a module layer could hold some)
            ServiceLoader.load(BackendProvider.class, loader).stream()
                    .filter(candidate -> candidate.type().getClassLoader() == loader).forEach(candidate -> {
                        BackendProvider provider = candidate.get();
                        found.add(new InstalledBackend(provider, Optional.of(jarOf(provider, plugin)),
                                versionOf(provider)));
                    });
        } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
            failures.add(new PluginFailure(plugin, "its backend provider failed to load: " + describe(e)));
            closeQuietly(loader);
            return;
        }
        Optional<String> broken = found.stream().map(b -> problemWith(b.provider())).flatMap(Optional::stream)
                .findFirst();
        if (broken.isPresent()) {
            failures.add(new PluginFailure(plugin, broken.get()));
            closeQuietly(loader);
            return;
        }
        if (found.isEmpty()) {
            failures.add(new PluginFailure(plugin, "registers no backend: a plugin lists its provider class in "
                    + "META-INF/services/" + BackendProvider.class.getName()));
            closeQuietly(loader);
            return;
        }
        backends.addAll(found);
    }

    /**
     * What is wrong with a provider that loaded: no name, or a failure of what Gantry asks of it before creating a
     * backend (its description, capabilities, keys and availability, which {@code gantry backends} shows), so that
     * a broken plugin is reported here rather than failing whatever command lists it.
     */
    private static Optional<String> problemWith(BackendProvider provider) {
        String type = provider.getClass().getName();
        try {
            String name = provider.name();
            if (name == null || name.isBlank()) {
                return Optional.of("its backend provider " + type + " gives no name: name() must return a stable "
                        + "lower-case name, such as the one gantry.yaml's backend: uses");
            }
            Objects.requireNonNull(provider.description(), "description()");
            Objects.requireNonNull(provider.capabilities(), "capabilities()");
            Objects.requireNonNull(provider.configKeys(), "configKeys()");
            Objects.requireNonNull(provider.unavailableReason(), "unavailableReason()");
            return Optional.empty();
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("its backend provider " + type + " fails to describe itself: " + describe(e));
        }
    }

    /**
     * The jars of a plugin, each checked to be a readable jar first (a URL class loader would skip a corrupt one
     * without a word): the jar itself, or every jar in the plugin's directory.
     */
    private static List<Path> jarsOf(Path plugin) throws IOException {
        List<Path> jars;
        if (Files.isDirectory(plugin)) {
            try (Stream<Path> entries = Files.list(plugin)) {
                jars = entries.filter(PluginLoader::isJar).sorted().toList();
            }
            if (jars.isEmpty()) {
                throw new IOException("the plugin directory holds no .jar file");
            }
        } else {
            jars = List.of(plugin);
        }
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                file.getManifest(); // reads the central directory: a truncated or non-zip file fails here
            } catch (IOException e) {
                throw new IOException(jar.getFileName() + " is not a readable jar (" + e + ")", e);
            }
        }
        return jars;
    }

    private static boolean isJar(Path path) {
        return path.getFileName().toString().endsWith(JAR) && Files.isRegularFile(path);
    }

    private static URL[] urls(List<Path> jars) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException("a file path is always a URL: " + jars.get(i), e);
            }
        }
        return urls;
    }

    /** The jar that holds the provider's class (in a directory plugin, one of its jars). */
    private static Path jarOf(BackendProvider provider, Path plugin) {
        CodeSource source = provider.getClass().getProtectionDomain().getCodeSource();
        try {
            return source == null ? plugin : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return plugin;
        }
    }

    /** The {@code Implementation-Version} of the manifest of the provider's jar, or unknown. */
    public static String versionOf(BackendProvider provider) {
        Package pkg = provider.getClass().getPackage();
        String version = pkg == null ? null : pkg.getImplementationVersion();
        return version == null || version.isBlank() ? InstalledBackend.UNKNOWN_VERSION : version;
    }

    /** The error and every cause under it, e.g. {@code ExceptionInInitializerError; caused by: ...: boom}. */
    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(e.toString());
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append("; caused by: ").append(cause);
        }
        return text.toString();
    }

    private static void closeQuietly(URLClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // the plugin is reported as failed already; an open jar handle is all that is left behind
        }
    }

    /**
     * What plugins provide.
     *
     * @param backends each plugin's backends, with the jar that holds the provider and its version
     * @param failures the plugins that provide none, or whose provider failed
     */
    public record Loaded(List<InstalledBackend> backends, List<PluginFailure> failures) {
        public Loaded {
            backends = List.copyOf(backends);
            failures = List.copyOf(failures);
        }

        public static Loaded none() {
            return new Loaded(List.of(), List.of());
        }
    }
}
