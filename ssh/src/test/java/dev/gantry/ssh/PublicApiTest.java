package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The module's public surface speaks Gantry and JDK types only, so JSch can be replaced without breaking callers. */
class PublicApiTest {

    private static final List<Class<?>> PUBLIC_TYPES = List.of(SshPool.class, SshTarget.class, ClientIdentity.class,
            ClientIdentity.KeyFile.class, ClientIdentity.Agent.class, HostKeyPolicy.class,
            HostKeyPolicy.KnownHostsFile.class, HostKeyPolicy.PinnedFingerprints.class,
            HostKeyPolicy.InsecureAcceptAnyHostKey.class, ShellQuoting.class, RemoteResult.class, RemoteCommand.class,
            ReconnectPolicy.class, HostPublicKey.class, SshLoginSettings.class, SshLoginSettings.Source.class);

    @Test
    void noPublicSignatureMentionsJschOrTheInternalPackage() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : PUBLIC_TYPES) {
            List<Executable> members = new ArrayList<>();
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers())) {
                    members.add(method);
                }
            }
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (Modifier.isPublic(constructor.getModifiers())) {
                    members.add(constructor);
                }
            }
            for (Executable member : members) {
                String signature = member.toGenericString();
                if (signature.contains("com.jcraft") || signature.contains("dev.gantry.ssh.internal")) {
                    leaks.add(signature);
                }
            }
            if (type.isRecord()) {
                for (RecordComponent component : type.getRecordComponents()) {
                    if (component.getGenericType().getTypeName().contains("com.jcraft")) {
                        leaks.add(type.getName() + "." + component.getName());
                    }
                }
            }
        }
        assertEquals(List.of(), leaks);
    }

    @Test
    void everyPublicTypeOfThePackageIsListedHere() throws Exception {
        // A new public type must be a deliberate addition to the surface: add it to PUBLIC_TYPES.
        List<String> found = new ArrayList<>();
        try (var classes = java.nio.file.Files.list(java.nio.file.Path.of(
                SshPool.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("dev/gantry/ssh"))) {
            for (var file : (Iterable<java.nio.file.Path>) classes::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class")) {
                    Class<?> type = Class.forName("dev.gantry.ssh." + name.substring(0, name.length() - 6));
                    if (Modifier.isPublic(type.getModifiers())) {
                        found.add(type.getName());
                    }
                }
            }
        }
        assertEquals(PUBLIC_TYPES.stream().map(Class::getName).sorted().toList(), found.stream().sorted().toList());
    }
}
