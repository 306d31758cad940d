package dev.gantry.examples;

import dev.gantry.Gantry;
import dev.gantry.SubmitRequest;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.model.JobRecord;
import java.time.Duration;

/**
 * A workload built in code, planned, submitted with a {@link SubmitRequest} to the backend the configuration names,
 * its status, its output and its end. With no configuration it runs on this machine (the manual backend's local
 * transport).
 */
public final class FirstProgram {
    private FirstProgram() {
    }

    public static void main(String[] args) throws InterruptedException {
        try (Gantry gantry = Gantry.builder().build()) {    // the CLI's configuration lookup; closes the backends
            JobRecord done = runHello(gantry, "hello-" + System.currentTimeMillis());
            System.exit(done.state().name().equals("SUCCEEDED") ? 0 : 1);
        } catch (GantryException e) {
            System.err.println(e.code() + ": " + e.getMessage());
            System.exit(e.code().isUserError() ? 2 : 1);   // as the gantry command exits
        }
    }

    /**
     * Runs the hello workload under {@code key} and waits for its end. Platform code takes the {@link Gantry} it
     * works with, so that its tests can hand it one of their own (see FirstProgramTest).
     */
    public static JobRecord runHello(Gantry gantry, String key) throws InterruptedException {
        Workload workload = Workload.builder("hello")
                .phase(Phase.TRAINING)
                .model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(2).memoryGib(4))
                .command("sh", "-c", "echo hello from $GANTRY_JOB_ID")
                .build();
        Plan plan = gantry.plan(workload);                  // size, region, spot, image, price, reasons
        JobRecord job = gantry.submit(SubmitRequest.of(plan)
                .idempotencyKey(key)                        // the job id: the same key again returns this job
                .label("team", "platform"));
        System.out.println(job.id() + " is " + gantry.job(job.id()).state() + " on " + job.backend());
        gantry.logs(job.id(), LogOptions.following(), line -> System.out.println("| " + line.text()));
        JobRecord done = gantry.await(job.id(), Duration.ofMinutes(10));
        done.exitCode().ifPresent(code -> System.out.println(done.id() + ": " + done.state() + ", exit " + code));
        return done;
    }
}
