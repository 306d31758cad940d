package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a 1.32 API server refuses is refused by the test cluster too, in its words: one bad object of each kind the
 * AKS backend sends, checked as the server's validation sees it and, for the 422s, through the Fabric8 client
 * against a running test cluster; good objects (the backend's golden manifests among them) are accepted.
 */
class ObjectValidationTest {
    private static final ApiRequest CREATE_JOB = ApiRequest.parse("POST", "/apis/batch/v1/namespaces/ml/jobs");
    private static final ApiRequest CREATE_SECRET = ApiRequest.parse("POST", "/api/v1/namespaces/ml/secrets");
    private static final ApiRequest CREATE_SERVICE = ApiRequest.parse("POST", "/api/v1/namespaces/ml/services");
    private static final String ENV_NAME_RULE = "a valid environment variable name must consist only of printable "
            + "ASCII characters other than '='";

    @TempDir
    static Path work;
    static KubeTestCluster cluster;
    static KubernetesClient admin;

    @BeforeAll
    static void start() {
        cluster = KubeTestCluster.builder().namespace("ml").workDirectory(work).hostNetwork().start();
        admin = new KubernetesClientBuilder().withConfig(cluster.adminConfig()).build();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void aFieldOfTheWrongTypeIsTheDecodersBadRequest() {
        String job = Json.write(suspended("typed")).replace("\"suspend\":true", "\"suspend\":true,\"parallelism\":\"two\"");
        assertRefused(ObjectValidation.ofBody(CREATE_JOB, job), 400, "BadRequest", "Job in version \"v1\" cannot be "
                + "handled as a Job: json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of "
                + "type int32");
        String quantity = Json.write(suspended("quantity")).replace("\"image\":\"busybox\"",
                "\"image\":\"busybox\",\"resources\":{\"limits\":{\"memory\":\"lots\"}}");
        assertRefused(ObjectValidation.ofBody(CREATE_JOB, quantity), 400, "BadRequest", "Job in version \"v1\" cannot "
                + "be handled as a Job: quantities must match the regular expression "
                + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }

    @Test
    void aJobNameThatIsNoSubdomainIsRefusedWithTheApiServersWording() {
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(suspended("Train_1")).create());
        assertEquals(422, refused.getCode());
        assertEquals("Invalid", refused.getStatus().getReason());
        assertEquals("Job.batch \"Train_1\" is invalid: metadata.name: Invalid value: \"Train_1\": a lowercase RFC "
                + "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and "
                + "end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", refused.getStatus().getMessage());
        assertEquals("metadata.name", refused.getStatus().getDetails().getCauses().get(0).getField());
        assertEquals("FieldValueInvalid", refused.getStatus().getDetails().getCauses().get(0).getReason());
        assertEquals("batch", refused.getStatus().getDetails().getGroup());
        assertEquals("Job", refused.getStatus().getDetails().getKind());
        assertTrue(admin.batch().v1().jobs().withName("Train_1").get() == null, "nothing was stored");
    }

    @Test
    void aJobWithoutANameIsRefusedNamingTheField() {
        Job unnamed = suspended("unnamed");
        unnamed.getMetadata().setName(null);
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(unnamed).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"\" is invalid: metadata.name: Required value: name or generateName is required",
                refused.getStatus().getMessage());
        assertEquals("FieldValueRequired", refused.getStatus().getDetails().getCauses().get(0).getReason());
    }

    /** The API server's own required fields, which its decoder does not check (the schemas' lists are not its rule). */
    @Test
    void aJobWithoutContainersOrWithoutAnImageIsRefusedNamingTheField() {
        Job bare = suspended("bare");
        bare.getSpec().getTemplate().getSpec().setContainers(java.util.List.of());
        KubernetesClientException noContainers = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(bare).create());
        assertEquals(422, noContainers.getCode());
        assertEquals("Job.batch \"bare\" is invalid: spec.template.spec.containers: Required value",
                noContainers.getStatus().getMessage());

        Job imageless = suspended("imageless");
        imageless.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(null);
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(imageless).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"imageless\" is invalid: spec.template.spec.containers[0].image: Required value",
                refused.getStatus().getMessage());
    }

    @Test
    void aJobNameLongerThanALabelValueIsRefusedAtTheTemplateLabelsAsTheJobStrategySetsThem() {
        String name = "a".repeat(64);
        assertRefused(ObjectValidation.ofBody(CREATE_JOB, Json.write(suspended(name))), 422, "Invalid",
                "Job.batch \"" + name + "\" is invalid: spec.template.metadata.labels: Invalid value: \"" + name
                        + "\": must be no more than 63 characters");
    }

    @Test
    void aLabelValueTooLongIsRefused() {
        Job job = suspended("labelled");
        job.getMetadata().setLabels(Map.of("gantry.dev/workload", "w".repeat(64)));
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(job).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"labelled\" is invalid: metadata.labels: Invalid value: \"" + "w".repeat(64)
                + "\": must be no more than 63 characters", refused.getStatus().getMessage());
    }

    @Test
    void anAnnotationKeyThatIsNoQualifiedNameIsRefused() {
        Job job = suspended("annotated");
        job.getMetadata().setAnnotations(Map.of("gantry.dev/idempotency key", "k"));
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(job).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"annotated\" is invalid: metadata.annotations: Invalid value: "
                + "\"gantry.dev/idempotency key\": name part must consist of alphanumeric characters, '-', '_' or '.', "
                + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                refused.getStatus().getMessage());
    }

    /**
     * 1.32 turned RelaxedEnvironmentVariableValidation on (beta, default true): a name starting with a digit is
     * accepted; '=' and non-printable characters are still refused.
     */
    @Test
    void anEnvironmentNameKubernetesRefusesIsRefusedAndOne132AcceptsIsNot() {
        Job job = suspended("environment");
        job.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(new ArrayList<>(List.of(
                new io.fabric8.kubernetes.api.model.EnvVar("1ST_GPU", "0", null),
                new io.fabric8.kubernetes.api.model.EnvVar("A=B", "1", null))));
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(job).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"environment\" is invalid: spec.template.spec.containers[0].env[1].name: Invalid "
                + "value: \"A=B\": " + ENV_NAME_RULE, refused.getStatus().getMessage());
        assertEquals("spec.template.spec.containers[0].env[1].name",
                refused.getStatus().getDetails().getCauses().get(0).getField());
        job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().remove(1);
        assertEquals("1ST_GPU", admin.batch().v1().jobs().resource(job).create().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getEnv().get(0).getName());
    }

    /** What 1.20 silently dropped, a 1.32 API server checks: the per-index fields and the pod failure policy. */
    @Test
    void aJobSpecTheJobValidationRefusesIsRefused() {
        Job perIndex = suspended("per-index");
        perIndex.getSpec().setBackoffLimitPerIndex(0);
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.batch().v1().jobs().resource(perIndex).create());
        assertEquals(422, refused.getCode());
        assertEquals("Job.batch \"per-index\" is invalid: spec.backoffLimitPerIndex: Invalid value: 0: requires indexed "
                + "completion mode", refused.getStatus().getMessage());

        String policy = "\"podFailurePolicy\":{\"rules\":[{\"action\":\"FailJob\",\"onExitCodes\":{\"operator\":\"In\","
                + "\"values\":[0,137,1]}}]}";
        String job = Json.write(suspended("policy")).replace("\"suspend\":true", "\"suspend\":true," + policy)
                .replace("\"restartPolicy\":\"Never\"", "\"restartPolicy\":\"OnFailure\"");
        assertRefused(ObjectValidation.ofBody(CREATE_JOB, job), 422, "Invalid", "Job.batch \"policy\" is invalid: ["
                + "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In "
                + "operator, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 137, 1}: must "
                + "be ordered, spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is "
                + "supported when podFailurePolicy is specified]");

        String always = Json.write(suspended("always")).replace("\"restartPolicy\":\"Never\"",
                "\"restartPolicy\":\"Always\"");
        assertRefused(ObjectValidation.ofBody(CREATE_JOB, always), 422, "Invalid", "Job.batch \"always\" is invalid: "
                + "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"");
    }

    @Test
    void aSecretWithAKeyThatIsNoConfigKeyIsRefused() {
        String secret = Json.object("apiVersion", "v1", "kind", "Secret", "metadata", Map.of("name", "train-env"),
                "immutable", true, "stringData", Map.of("HF TOKEN", "x"));
        assertRefused(ObjectValidation.ofBody(CREATE_SECRET, secret), 422, "Invalid", "Secret \"train-env\" is "
                + "invalid: data[HF TOKEN]: Invalid value: \"HF TOKEN\": a valid config key must consist of "
                + "alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex "
                + "used for validation is '[-._a-zA-Z0-9]+')");
    }

    @Test
    void aServiceWithAPortOutOfRangeOrANameNotStartingWithALetterIsRefused() {
        var service = new ServiceBuilder().withNewMetadata().withName("train").endMetadata().withNewSpec()
                .withClusterIP("None").addNewPort().withName("master").withPort(70000).endPort().endSpec().build();
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.services().resource(service).create());
        assertEquals(422, refused.getCode());
        assertEquals("Service \"train\" is invalid: spec.ports[0].port: Invalid value: 70000: must be between 1 and "
                + "65535, inclusive", refused.getStatus().getMessage());
        assertEquals("", refused.getStatus().getDetails().getGroup());
        String named = Json.object("apiVersion", "v1", "kind", "Service", "metadata", Map.of("name", "1abc"),
                "spec", Map.of("clusterIP", "None"));
        assertRefused(ObjectValidation.ofBody(CREATE_SERVICE, named), 422, "Invalid", "Service \"1abc\" is invalid: "
                + "metadata.name: Invalid value: \"1abc\": a DNS-1035 label must consist of lower case alphanumeric "
                + "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
                + "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
    }

    @Test
    void anUnknownFieldIsDroppedWithAWarningAndRefusedOnlyWhenStrict() {
        Job job = suspended("unknown");
        job.getSpec().setAdditionalProperty("backoffLimitPerRank", 0);
        ObjectValidation.Verdict warned = ObjectValidation.ofBody(CREATE_JOB, Json.write(job));
        assertTrue(warned.refusal().isEmpty());
        assertEquals(List.of("unknown field \"spec.backoffLimitPerRank\""), warned.warnings());
        assertFalse(warned.body().contains("backoffLimitPerRank"), warned.body());
        Job created = admin.batch().v1().jobs().resource(job).create();
        assertFalse(created.getSpec().getAdditionalProperties().containsKey("backoffLimitPerRank"),
                "dropped as the API server drops it");
        ApiRequest strict = ApiRequest.parse("POST", "/apis/batch/v1/namespaces/ml/jobs?fieldValidation=Strict");
        assertRefused(ObjectValidation.ofBody(strict, Json.write(job)), 400, "BadRequest", "Job in version \"v1\" "
                + "cannot be handled as a Job: strict decoding error: unknown field \"spec.backoffLimitPerRank\"");
    }

    @Test
    void aPatchIsJudgedByTheObjectItMakes() {
        admin.batch().v1().jobs().resource(suspended("patched")).create();
        KubernetesClientException refused = assertThrows(KubernetesClientException.class, () -> admin.batch().v1()
                .jobs().withName("patched").patch("{\"metadata\":{\"labels\":{\"gantry.dev/job\":\"-bad-\"}}}"));
        assertEquals(422, refused.getCode());
        assertTrue(refused.getStatus().getMessage().startsWith("Job.batch \"patched\" is invalid: metadata.labels: "
                + "Invalid value: \"-bad-\": a valid label"), refused.getStatus().getMessage());
        assertTrue(admin.batch().v1().jobs().withName("patched").get().getMetadata().getLabels().isEmpty(),
                "the refused patch changed nothing");
        admin.batch().v1().jobs().withName("patched").patch("{\"metadata\":{\"labels\":{\"gantry.dev/job\":\"ok\"}},"
                + "\"spec\":{\"suspendUntil\":\"never\"}}");
        Job patched = admin.batch().v1().jobs().withName("patched").get();
        assertEquals("ok", patched.getMetadata().getLabels().get("gantry.dev/job"));
        assertFalse(patched.getSpec().getAdditionalProperties().containsKey("suspendUntil"),
                "an unknown field a patch brings is dropped, as the API server drops it");
    }

    @Test
    void theBackendsGoldenManifestsAreAccepted() throws IOException {
        Path golden = Path.of("src/test/resources/golden/manifests");
        List<Path> manifests;
        try (Stream<Path> files = Files.list(golden)) {
            manifests = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(manifests.isEmpty(), "no golden manifests under " + golden);
        for (Path manifest : manifests) {
            GenericKubernetesResource object = Json.SERIALIZATION.unmarshal(
                    Files.readString(manifest, StandardCharsets.UTF_8), GenericKubernetesResource.class);
            String collection = "Job".equals(object.getKind()) ? "/apis/batch/v1/namespaces/ml-jobs/jobs"
                    : "/api/v1/namespaces/ml-jobs/" + object.getKind().toLowerCase() + "s";
            ObjectValidation.Verdict verdict = ObjectValidation.ofBody(ApiRequest.parse("POST", collection),
                    Json.write(object));
            assertTrue(verdict.refusal().isEmpty(), manifest + ": " + verdict.refusal().map(r -> r.getBody()
                    .toString()).orElse(""));
            assertEquals(List.of(), verdict.warnings(), manifest + " has fields Kubernetes 1.32 does not know");
            assertTrue(OpenApiSchema.v132().knows(object.getApiVersion(), object.getKind()), manifest.toString());
        }
    }

    private static Job suspended(String name) {
        Job job = ApiServerTest.job(name);
        job.getSpec().setSuspend(true);
        return job;
    }

    private static void assertRefused(ObjectValidation.Verdict verdict, int code, String reason, String message) {
        assertTrue(verdict.refusal().isPresent(), "accepted: " + message);
        var response = verdict.refusal().get();
        assertEquals(code, response.code());
        Map<?, ?> status = Json.read(new String(response.getBody().getBytes(), StandardCharsets.UTF_8), Map.class);
        assertEquals("Failure", status.get("status"));
        assertEquals(reason, status.get("reason"));
        assertEquals(message, status.get("message"));
    }
}
