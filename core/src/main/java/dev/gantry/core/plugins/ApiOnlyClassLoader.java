package dev.gantry.core.plugins;

/**
 * The parent of every plugin's class loader: the JDK (the platform class loader) and Gantry's API
 * ({@code dev.gantry.api.*}, JDK only itself), nothing else of Gantry. A plugin's own Jackson, slf4j or anything
 * else Gantry also uses is therefore the plugin's, never Gantry's copy; and no resource of Gantry's class path is
 * visible, so ServiceLoader finds only the providers the plugin's own jars register.
 */
final class ApiOnlyClassLoader extends ClassLoader {
    private static final String API = "dev.gantry.api.";

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader gantry;

    /**
     * The parent for plugins of the Gantry loaded by {@code gantry}. Typed as a plain class loader so that a caller's
     * verification does not load this class: with no plugin installed it is never loaded.
     */
    static ClassLoader over(ClassLoader gantry) {
        return new ApiOnlyClassLoader(gantry);
    }

    private ApiOnlyClassLoader(ClassLoader gantry) {
        super("gantry-api", ClassLoader.getPlatformClassLoader());
        this.gantry = gantry;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(API)) {
            return gantry.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }
}
