package dev.gantry.backend.violating.internal;

import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import java.util.List;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class HiddenProvider implements BackendProvider {
    private HiddenProvider() {
    }

    @Override
    public String name() {
        return "hidden";
    }

    @Override
    public String description() {
        return "a provider ServiceLoader cannot instantiate";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().build();
    }

    @Override
    public List<ConfigKey> configKeys() {
        return List.of();
    }

    @Override
    public Backend create(BackendConfig config, BackendContext context) {
        throw new IllegalStateException("never created");
    }
}
