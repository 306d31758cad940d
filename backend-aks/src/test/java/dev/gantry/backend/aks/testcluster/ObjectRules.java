package dev.gantry.backend.aks.testcluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The API server's hand-written validation of what the AKS backend sends, over an object its schema already read:
 * object metadata (apimachinery's {@code ValidateObjectMetaAccessor}: name by the kind's rule, generateName, labels,
 * annotations) and, from Kubernetes' {@code pkg/apis/core/validation} and {@code pkg/apis/batch/validation}, a Job's
 * pod template (its labels as the Job strategy sets them, the job name among them), containers' names, environment
 * names and ports, Service ports, Secret and ConfigMap keys. Each error has the field path and wording the API
 * server gives.
 */
final class ObjectRules {
    /** apimachinery's TotalAnnotationSizeLimitB. */
    private static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

    private ObjectRules() {
    }

    static List<FieldError> check(String kind, JsonNode object) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode metadata = object.path("metadata");
        errors.addAll(objectMeta(metadata, "metadata", nameRule(kind)));
        JsonNode spec = object.path("spec");
        switch (kind) {
            case "Job" -> {
                jobTemplate(metadata.path("name").asText(""), spec.path("template"), errors);
                errors.addAll(JobRules.check(spec));
            }
            case "Pod" -> podSpec(spec, "spec", errors);
            case "Service" -> servicePorts(spec.path("ports"), errors);
            case "Secret" -> {
                keys(object.path("data"), "data", errors);
                keys(object.path("stringData"), "data", errors);
            }
            case "ConfigMap" -> {
                keys(object.path("data"), "data", errors);
                keys(object.path("binaryData"), "binaryData", errors);
            }
            default -> {
            }
        }
        return errors;
    }

    /** Services are DNS-1035 labels (a letter first), namespaces DNS labels, every other kind here a subdomain. */
    private static Function<String, List<String>> nameRule(String kind) {
        return switch (kind) {
            case "Service" -> NameRules::dns1035Label;
            case "Namespace" -> NameRules::dns1123Label;
            default -> NameRules::dns1123Subdomain;
        };
    }

    private static List<FieldError> objectMeta(JsonNode metadata, String path,
            Function<String, List<String>> nameRule) {
        List<FieldError> errors = new ArrayList<>();
        String generateName = metadata.path("generateName").asText("");
        if (!generateName.isEmpty()) {
            nameRule.apply(maskTrailingDash(generateName)).forEach(message -> errors.add(
                    FieldError.invalid(path + ".generateName", generateName, message)));
        }
        String name = metadata.path("name").asText("");
        if (!name.isEmpty()) {
            nameRule.apply(name).forEach(message -> errors.add(FieldError.invalid(path + ".name", name, message)));
        }
        errors.addAll(labels(metadata.path("labels"), path + ".labels"));
        errors.addAll(annotations(metadata.path("annotations"), path + ".annotations"));
        return errors;
    }

    /** apimachinery's maskTrailingDash: a generateName's trailing '-' is checked as the suffix will leave it. */
    private static String maskTrailingDash(String name) {
        return name.length() > 1 && name.endsWith("-") ? name.substring(0, name.length() - 2) + "a" : name;
    }

    private static List<FieldError> labels(JsonNode labels, String path) {
        List<FieldError> errors = new ArrayList<>();
        labels.fields().forEachRemaining(label -> {
            NameRules.qualifiedName(label.getKey()).forEach(message -> errors.add(
                    FieldError.invalid(path, label.getKey(), message)));
            String value = label.getValue().asText("");
            NameRules.labelValue(value).forEach(message -> errors.add(FieldError.invalid(path, value, message)));
        });
        return errors;
    }

    private static List<FieldError> annotations(JsonNode annotations, String path) {
        List<FieldError> errors = new ArrayList<>();
        long[] size = {0};
        annotations.fields().forEachRemaining(annotation -> {
            NameRules.qualifiedName(annotation.getKey().toLowerCase()).forEach(message -> errors.add(
                    FieldError.invalid(path, annotation.getKey(), message)));
            size[0] += annotation.getKey().length() + annotation.getValue().asText("").length();
        });
        if (size[0] > ANNOTATIONS_MAX_BYTES) {
            errors.add(FieldError.tooLong(path, ANNOTATIONS_MAX_BYTES));
        }
        return errors;
    }

    /**
     * The template as the Job strategy leaves it before validation: its labels gain the job's name (so a name longer
     * than a label value is refused there, as the API server does).
     */
    private static void jobTemplate(String jobName, JsonNode template, List<FieldError> errors) {
        String path = "spec.template";
        List<FieldError> labels = new ArrayList<>(labels(template.path("metadata").path("labels"),
                path + ".metadata.labels"));
        if (!jobName.isEmpty()) {
            Map<String, String> strategyLabels = Map.of("batch.kubernetes.io/job-name", jobName, "job-name", jobName);
            for (Map.Entry<String, String> label : strategyLabels.entrySet()) {
                NameRules.labelValue(label.getValue()).forEach(message -> labels.add(
                        FieldError.invalid(path + ".metadata.labels", label.getValue(), message)));
            }
        }
        errors.addAll(labels);
        errors.addAll(annotations(template.path("metadata").path("annotations"), path + ".metadata.annotations"));
        podSpec(template.path("spec"), path + ".spec", errors);
    }

    private static void podSpec(JsonNode spec, String path, List<FieldError> errors) {
        containers(spec.path("initContainers"), path + ".initContainers", errors);
        if (spec.path("containers").isEmpty()) {
            errors.add(FieldError.required(path + ".containers", ""));
        }
        containers(spec.path("containers"), path + ".containers", errors);
    }

    private static void containers(JsonNode containers, String path, List<FieldError> errors) {
        for (int i = 0; i < containers.size(); i++) {
            JsonNode container = containers.get(i);
            String at = path + "[" + i + "]";
            String name = container.path("name").asText("");
            if (name.isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else {
                NameRules.dns1123Label(name).forEach(message -> errors.add(
                        FieldError.invalid(at + ".name", name, message)));
            }
            if (container.path("image").asText("").isEmpty()) {
                errors.add(FieldError.required(at + ".image", ""));
            }
            JsonNode ports = container.path("ports");
            for (int p = 0; p < ports.size(); p++) {
                JsonNode number = ports.get(p).path("containerPort");
                String portPath = at + ".ports[" + p + "].containerPort";
                if (number.asLong(0) == 0) {
                    errors.add(FieldError.required(portPath, ""));
                } else {
                    NameRules.portNumber(number.asLong()).forEach(message -> errors.add(
                            FieldError.invalid(portPath, number.asLong(), message)));
                }
            }
            JsonNode env = container.path("env");
            for (int e = 0; e < env.size(); e++) {
                String envName = env.get(e).path("name").asText("");
                String envPath = at + ".env[" + e + "].name";
                if (envName.isEmpty()) {
                    errors.add(FieldError.required(envPath, ""));
                } else {
                    NameRules.relaxedEnvVarName(envName).forEach(message -> errors.add(
                            FieldError.invalid(envPath, envName, message)));
                }
            }
        }
    }

    private static void servicePorts(JsonNode ports, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String at = "spec.ports[" + i + "]";
            String name = port.path("name").asText("");
            if (ports.size() > 1 && name.isEmpty()) {
                errors.add(FieldError.required(at + ".name", ""));
            } else if (!name.isEmpty()) {
                NameRules.dns1123Label(name).forEach(message -> errors.add(
                        FieldError.invalid(at + ".name", name, message)));
                if (!names.add(name)) {
                    errors.add(FieldError.duplicate(at + ".name", name));
                }
            }
            long number = port.path("port").asLong(0);
            NameRules.portNumber(number).forEach(message -> errors.add(
                    FieldError.invalid(at + ".port", number, message)));
        }
    }

    /** Secret and ConfigMap keys (a Secret's stringData is merged into data before validation, so named so). */
    private static void keys(JsonNode data, String path, List<FieldError> errors) {
        data.fieldNames().forEachRemaining(key -> NameRules.configMapKey(key).forEach(message -> errors.add(
                FieldError.invalid(path + "[" + key + "]", key, message))));
    }
}
