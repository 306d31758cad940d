package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.StartChecks;
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
import java.util.function.Supplier;

/**
 * Submits plans as Grid Engine batch jobs, exactly once per idempotency key ({@link BatchSubmit}, qsub on the login
 * node), shaped as {@link GridEngineJobShape} says: one host's slots, or a fixed number of slots on each of several
 * hosts; Spot plans are rerunnable. Dependencies become {@code -hold_jid} on the
 * dependencies' job numbers, and the job's script checks those it needs to have succeeded.
 */
final class GridEngineSubmission {
    private final LoginNode login;
    private final CycleCloudSettings settings;
    private final PartitionChoice queues;
    private final BatchSubmit batches;
    private final Supplier<GridEngineFacts> facts;

    GridEngineSubmission(LoginNode login, CycleCloudSettings settings, BackendContext context,
                         PartitionChoice queues, Supplier<GridEngineFacts> facts) {
        this.login = login;
        this.settings = settings;
        this.queues = queues;
        this.facts = facts;
        this.batches = new BatchSubmit(login, GridEngineScripts.SCRIPTS.submit(), "Grid Engine", settings.workDir(),
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
                    ClusterJobs.recordedIdOf(dependency.job()));
            holds.add(hold);
            if (!hold.isNative()) {
                requireSuccess.add(ClusterJobs.jobId(dependency.job()));
            }
        }
        return new GridEngineBatchScript(directives(plan, id, directory, holds), id, directory, plan.nodes(),
                login.bin(), requireSuccess, plan.workload().workingDir(), StartChecks.command(plan));
    }

    private QsubDirectives directives(Plan plan, String id, String directory,
                                      List<QsubDirectives.Dependency> holds) {
        GridEngineJobShape shape = shape(plan);
        return new QsubDirectives(id, queues.partitionFor(plan), settings.account(), shape.slots(),
                shape.parallelEnvironment(), Optional.empty(), shape.memoryPerSlotMib(), settings.memoryComplex(),
                shape.gpuRequest(), settings.gpuComplex(), shape.exclusive(), directory, plan.spot(), holds);
    }

    /**
     * Submit follows validate: the cluster's facts are the probe's answer validate read. A plan nobody validated that
     * has no shape here is refused with validate's problems.
     */
    private GridEngineJobShape shape(Plan plan) {
        GridEngineJobShape.Result result = GridEngineJobShape.of(plan, settings, facts.get());
        return result.shape().orElseThrow(() -> GantryException.invalid(ErrorCode.PLAN_REJECTED, result.problems()));
    }
}
