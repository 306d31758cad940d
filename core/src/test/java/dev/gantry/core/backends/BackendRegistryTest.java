package dev.gantry.core.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.core.FakeBackend;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackendRegistryTest {
    private final FakeBackend.Provider fake = new FakeBackend.Provider("fake");
    private final BackendContext context = new BackendContext() {
        @Override
        public Path stateDirectory() {
            return Path.of("unused");
        }

        @Override
        public dev.gantry.api.backend.SecretResolver secrets() {
            return ref -> {
                throw new AssertionError("not used");
            };
        }
    };

    @Test
    void unknownNameListsTheInstalledBackendsAndSuggestsTheNearest() {
        BackendRegistry registry = new BackendRegistry(List.of(fake, new FakeBackend.Provider("manual")));
        GantryException e = assertThrows(GantryException.class, () -> registry.require("manaul"));
        assertEquals(ErrorCode.UNKNOWN_BACKEND, e.code());
        assertEquals("unknown backend 'manaul'; installed backends: fake, manual; did you mean 'manual'?",
                e.getMessage());
    }

    @Test
    void twoProvidersWithOneNameFailLoudlyNamingBothClasses() {
        BackendProvider other = new BackendProvider() {
            @Override
            public String name() {
                return "fake";
            }

            @Override
            public String description() {
                return "impostor";
            }

            @Override
            public dev.gantry.api.backend.Capabilities capabilities() {
                return fake.capabilities();
            }

            @Override
            public List<dev.gantry.api.backend.ConfigKey> configKeys() {
                return List.of();
            }

            @Override
            public dev.gantry.api.backend.Backend create(BackendConfig config, BackendContext ctx) {
                return null;
            }
        };
        GantryException e = assertThrows(GantryException.class, () -> new BackendRegistry(List.of(fake, other)));
        assertEquals(ErrorCode.DUPLICATE_BACKEND, e.code());
        assertTrue(e.getMessage().contains(FakeBackend.Provider.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains(other.getClass().getName()), e.getMessage());
    }

    @Test
    void providersAreSortedByName() {
        BackendRegistry registry = new BackendRegistry(List.of(new FakeBackend.Provider("zeta"), fake));
        assertEquals(List.of("fake", "zeta"), registry.providers().stream().map(BackendProvider::name).toList());
    }

    @Test
    void unknownSettingIsRefusedWithTheExactKeyAndASuggestion() {
        BackendRegistry registry = new BackendRegistry(List.of(fake));
        GantryException e = assertThrows(GantryException.class,
                () -> registry.create("fake", new BackendConfig("fake", Map.of("zone", "b", "zonr", "c")), context));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("backends.fake.zonr: unknown setting; did you mean 'zone'?", e.getMessage());
    }

    @Test
    void everyWrongSettingIsReportedAtOnceWhereTheFileHasIt() {
        BackendRegistry registry = new BackendRegistry(List.of(fake));
        BackendConfig config = new BackendConfig("fake", Map.of("zonr", "c", "token", "hunter2", "colour", "blue"),
                Map.of("zonr", new SourceLocation("gantry.yaml", 4, 11), "token",
                        new SourceLocation("gantry.yaml", 5, 12)));
        GantryException e = assertThrows(GantryException.class, () -> registry.create("fake", config, context));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(String.join("\n",
                "backends.fake.colour: unknown setting; 'gantry backends --output json' lists the keys fake accepts",
                "gantry.yaml:4:11: backends.fake.zonr: unknown setting; did you mean 'zone'?",
                "gantry.yaml:5:12: backends.fake.token: is a secret and must be a reference (env:NAME, file:PATH or a "
                        + "Key Vault secret URI), not the value itself"), e.getMessage());
        assertEquals(3, e.problems().size());
    }

    @Test
    void aTypoAndWhatTheBackendsOwnBindingFindsComeInOneRound() {
        // A backend that binds its settings as the SSH backends do: a key file left out is found only by binding.
        BackendProvider binding = new BackendProvider() {
            @Override
            public String name() {
                return fake.name();
            }

            @Override
            public String description() {
                return fake.description();
            }

            @Override
            public dev.gantry.api.backend.Capabilities capabilities() {
                return fake.capabilities();
            }

            @Override
            public List<dev.gantry.api.backend.ConfigKey> configKeys() {
                return fake.configKeys();
            }

            @Override
            public dev.gantry.api.backend.Backend create(BackendConfig config, BackendContext ctx) {
                throw GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(
                        config.problem("zonr", "unknown setting; did you mean 'zone'?"),
                        config.problem("identityFile", "is required, or set agent: true")));
            }
        };
        BackendRegistry registry = new BackendRegistry(List.of(binding));
        BackendConfig config = new BackendConfig("fake", Map.of("zonr", "c", "colour", "blue"),
                Map.of("", new SourceLocation("gantry.yaml", 3, 5), "zonr", new SourceLocation("gantry.yaml", 4, 11),
                        "colour", new SourceLocation("gantry.yaml", 5, 13)));
        GantryException e = assertThrows(GantryException.class, () -> registry.create("fake", config, context));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "gantry.yaml:5:13: backends.fake.colour: unknown setting; 'gantry backends --output json' lists the "
                        + "keys fake accepts",
                "gantry.yaml:4:11: backends.fake.zonr: unknown setting; did you mean 'zone'?",
                "gantry.yaml:3:5: backends.fake.identityFile: is required, or set agent: true"),
                e.problems().stream().map(Object::toString).toList());
    }

    @Test
    void aSecretGivenInClearIsRefusedWithoutEchoingIt() {
        BackendRegistry registry = new BackendRegistry(List.of(fake));
        GantryException e = assertThrows(GantryException.class,
                () -> registry.create("fake", new BackendConfig("fake", Map.of("token", "hunter2")), context));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().startsWith("backends.fake.token: is a secret and must be a reference"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void aSecretReferenceIsAccepted() {
        BackendRegistry registry = new BackendRegistry(List.of(fake));
        assertSame(fake.backend,
                registry.create("fake", new BackendConfig("fake", Map.of("token", "env:FAKE_TOKEN")), context));
    }
}
