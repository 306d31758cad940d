package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment and argv as the kubelet makes them (kubelet_pods.go makeEnvironmentVariables): the
 * variables in order, each {@code value} expanded against those defined before it; {@code secretKeyRef} from the
 * pod's namespace ({@code CreateContainerConfigError} when the Secret or key is missing); the downward API's
 * {@code fieldRef}; then command and args expanded against the result.
 */
final class ContainerEnvironment {
    /** Why a container cannot be made: the kubelet's CreateContainerConfigError message. */
    static final class ConfigError extends Exception {
        ConfigError(String message) {
            super(message);
        }
    }

    record Launch(List<String> argv, Map<String, String> environment) {
    }

    private static final Pattern ANNOTATION_OR_LABEL =
            Pattern.compile("metadata\\.(annotations|labels)\\['(.+)'\\]");

    private ContainerEnvironment() {
    }

    static Launch resolve(Pod pod, Container container, Function<String, Optional<Secret>> secrets)
            throws ConfigError {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar var : container.getEnv()) {
            String value;
            if (var.getValueFrom() == null) {
                value = Expansion.expand(var.getValue() == null ? "" : var.getValue(), List.of(env));
            } else if (var.getValueFrom().getSecretKeyRef() != null) {
                Optional<String> fromSecret = secretValue(pod, var.getValueFrom().getSecretKeyRef(), secrets);
                if (fromSecret.isEmpty()) {
                    continue;
                }
                value = fromSecret.get();
            } else if (var.getValueFrom().getFieldRef() != null) {
                value = field(pod, var.getValueFrom().getFieldRef());
            } else {
                throw new ConfigError("unsupported valueFrom in environment variable " + var.getName());
            }
            env.put(var.getName(), value);
        }
        List<String> argv = new ArrayList<>();
        for (String part : container.getCommand()) {
            argv.add(Expansion.expand(part, List.of(env)));
        }
        for (String part : container.getArgs()) {
            argv.add(Expansion.expand(part, List.of(env)));
        }
        return new Launch(argv, env);
    }

    private static Optional<String> secretValue(Pod pod, SecretKeySelector ref,
            Function<String, Optional<Secret>> secrets) throws ConfigError {
        boolean optional = Boolean.TRUE.equals(ref.getOptional());
        Optional<Secret> secret = secrets.apply(ref.getName());
        if (secret.isEmpty()) {
            if (optional) {
                return Optional.empty();
            }
            throw new ConfigError("secret \"" + ref.getName() + "\" not found");
        }
        Map<String, String> data = secret.get().getData();
        if (data != null && data.containsKey(ref.getKey())) {
            return Optional.of(new String(Base64.getDecoder().decode(data.get(ref.getKey())), StandardCharsets.UTF_8));
        }
        Map<String, String> stringData = secret.get().getStringData();
        if (stringData != null && stringData.containsKey(ref.getKey())) {
            return Optional.of(stringData.get(ref.getKey()));
        }
        if (optional) {
            return Optional.empty();
        }
        throw new ConfigError("couldn't find key " + ref.getKey() + " in Secret " + pod.getMetadata().getNamespace()
                + "/" + ref.getName());
    }

    private static String field(Pod pod, ObjectFieldSelector selector) throws ConfigError {
        String path = selector.getFieldPath();
        Matcher m = ANNOTATION_OR_LABEL.matcher(path);
        if (m.matches()) {
            Map<String, String> source = m.group(1).equals("annotations") ? pod.getMetadata().getAnnotations()
                    : pod.getMetadata().getLabels();
            return source.getOrDefault(m.group(2), "");
        }
        return switch (path) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "metadata.uid" -> pod.getMetadata().getUid();
            case "spec.nodeName" -> pod.getSpec().getNodeName();
            case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName() == null ? ""
                    : pod.getSpec().getServiceAccountName();
            case "status.hostIP", "status.podIP" -> pod.getStatus().getHostIP() == null ? ""
                    : pod.getStatus().getHostIP();
            default -> throw new ConfigError("unsupported fieldPath " + path);
        };
    }
}
