package dev.gantry.core.wiring;

import dagger.BindsInstance;
import dagger.Component;
import javax.inject.Singleton;

/** Core's Dagger component: built from one {@link GantrySettings}; backends come from the discovery module. */
@Singleton
@Component(modules = {CoreModule.class, BackendDiscoveryModule.class})
interface GantryComponent {
    CoreServices services();

    @Component.Builder
    interface Builder {
        @BindsInstance
        Builder settings(GantrySettings settings);

        GantryComponent build();
    }
}
