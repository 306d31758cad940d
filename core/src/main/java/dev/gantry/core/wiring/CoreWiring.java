package dev.gantry.core.wiring;

/** Builds core's services; the only way into the Dagger component from outside this package. */
public final class CoreWiring {
    private CoreWiring() {
    }

    public static CoreServices create(GantrySettings settings) {
        return DaggerGantryComponent.builder().settings(settings).build().services();
    }
}
