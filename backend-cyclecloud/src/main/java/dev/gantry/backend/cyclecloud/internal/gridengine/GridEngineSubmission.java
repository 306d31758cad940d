package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.BatchSubmit;
import dev.gantry.backend.cyclecloud.internal.login.ClusterJobs;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Submits plans as Grid Engine batch jobs, exactly once per idempotency key ({@link BatchSubmit}, qsub on the login
 * node). A job is one host's worth of slots: the workload's vCPUs (one slot when it names none), through the
 * parallel environment when more than one; Spot plans are rerunnable. Dependencies become {@code -hold_jid} on the
 * dependencies' job numbers, and the job's script checks those it needs to have succeeded.
 */
final class GridEngineSubmission {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final PartitionChoice queues;
    private final BatchSubmit batches;

    GridEngineSubmission(LoginNode login, CycleCloudSettings settings, BackendContext context,
                         PartitionChoice queues) {
        this.login = login;
        this.settings = settings;
        this.queues = queues;
        this.batches = new BatchSubmit(login, GridEngineScripts.SUBMIT, "Grid Engine", settings.workDir(),
                settings.login().user(), "check the queue, slots, parallel environment and complexes against "
                + "qconf -sq and qconf -sc, or run gantry doctor", context, settings.masterPort());
    }

    List<JobRef> submitAll(List<Submission> submissions) {
        return batches.submitAll(submissions, GridEngineBatchScript.common(), this::script);
    }

    private GridEngineBatchScript script(Plan plan, SubmitOptions options, String id, String directory) {
        List<QsubDirectives.Dependency> holds = new ArrayList<>();
        List<String> requireSuccess = new ArrayList<>();
        for (JobDependency dependency : options.dependencies()) {
            QsubDirectives.Dependency hold = new QsubDirectives.Dependency(dependency.condition(),
                    batches.schedulerIdOf(dependency.job(), GridEngineScripts.GE_ID));
            holds.add(hold);
            if (!hold.isNative()) {
                requireSuccess.add(ClusterJobs.jobId(dependency.job()));
            }
        }
        return new GridEngineBatchScript(directives(plan, id, directory, holds), id, directory, login.bin(),
                requireSuccess, plan.workload().workingDir(), plan.workload().command());
    }

    private QsubDirectives directives(Plan plan, String id, String directory,
                                      List<QsubDirectives.Dependency> holds) {
        int slots = slots(plan);
        long memory = memoryMib(plan);
        return new QsubDirectives(id, queues.partitionFor(plan), settings.account(), slots,
                slots > 1 ? Optional.of(settings.parallelEnvironment()) : Optional.empty(), Optional.empty(),
                memory == 0 ? 0 : (long) Math.ceil((double) memory / slots), settings.memoryComplex(), gpus(plan),
                settings.gpuComplex(), false, directory, plan.spot(), holds);
    }

    /** The slots a plan's job holds: the vCPUs the workload asks for, else one. */
    static int slots(Plan plan) {
        return Math.max(1, plan.workload().resources().vcpus().orElse(1));
    }

    /** The GPUs a plan's job asks for: the workload's, else the planned size's. */
    static int gpus(Plan plan) {
        return plan.workload().resources().gpus().orElse(plan.gpusPerNode());
    }

    /** The memory a plan's job asks for, in MiB; 0 when the workload names none. */
    static long memoryMib(Plan plan) {
        Resources resources = plan.workload().resources();
        return resources.memoryGib().isPresent() ? (long) Math.ceil(resources.memoryGib().getAsDouble() * 1024) : 0;
    }
}
