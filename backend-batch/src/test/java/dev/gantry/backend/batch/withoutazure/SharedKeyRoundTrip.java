package dev.gantry.backend.batch.withoutazure;

import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.batch.BatchBackendProvider;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A shared-key round trip as a library user makes it: the provider found by name, validate, submit, statuses until the
 * job ends. Loaded by {@link WithoutTheAzureModuleTest} in a class loader that lacks gantry-azure; returns the end.
 */
public final class SharedKeyRoundTrip implements Function<Map<String, String>, String> {
    @Override
    public String apply(Map<String, String> account) {
        SecretRef key = SecretRef.parse("env:GANTRY_TEST_BATCH_KEY");
        try (TckContext context = TckContext.create().putSecret(key, account.get("key"));
             Backend backend = new BatchBackendProvider().create(new BackendConfig("batch", Map.of(
                     "accounts[0].url", account.get("url"), "accounts[0].region", account.get("region"),
                     "accounts[0].auth", "sharedKey", "accounts[0].key", key.toString())), context)) {
            Plan plan = Plan.builder(Workload.builder("no-azure").phase(Phase.TRAINING).model(ModelClass.SMALL)
                            .resources(Resources.builder().vcpus(1)).command("true").build(),
                    BackendFixture.smallCpuSize()).region(account.get("region")).spot(false)
                    .image(ImageRef.marketplace("Ubuntu Server 22.04",
                            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest"))
                    .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 22.04"))).build();
            if (!backend.validate(plan).isEmpty()) {
                return "refused: " + backend.validate(plan);
            }
            JobRef job = backend.submit(plan, SubmitOptions.withKey("no-azure"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            JobStatus status = backend.statuses(List.of(job)).get(job);
            while (!status.state().isTerminal() && System.nanoTime() < deadline) {
                Thread.sleep(200);
                status = backend.statuses(List.of(job)).get(job);
            }
            return status.state().name();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
