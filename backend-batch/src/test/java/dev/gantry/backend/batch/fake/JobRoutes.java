package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Jobs: add (with the account's active-job quota), get, terminate, delete. */
final class JobRoutes {
    private final FakeState state;
    private final TaskLifecycle tasks;

    JobRoutes(FakeState state, TaskLifecycle tasks) {
        this.state = state;
        this.tasks = tasks;
    }

    FakeResponse add(FakeRequest request) {
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("JobAddParameter", body);
        String id = Ids.check("id", body.get("id").asText());
        if (!body.get("poolInfo").has("poolId")) {
            throw BatchError.missingProperty("poolInfo.poolId");
        }
        if (state.jobs.containsKey(FakeState.key(id))) {
            throw BatchError.conflict("JobExists", "The specified job already exists.");
        }
        if (state.activeJobs() >= state.options.activeJobQuota) {
            throw BatchError.conflict("ActiveJobAndScheduleQuotaReached", "The specified account has reached the "
                    + "maximum number of active jobs and job schedules (" + state.options.activeJobQuota + ").");
        }
        state.jobs.put(FakeState.key(id), new FakeJob(id, body, state.now()));
        return Replies.created(state.baseUrl, "/jobs/" + id);
    }

    FakeResponse get(FakeRequest request) {
        FakeJob job = state.job(request.segment(1));
        return Replies.entity(state.baseUrl, "jobs/@Element", job.json(state.baseUrl));
    }

    FakeResponse terminate(FakeRequest request) {
        FakeJob job = state.job(request.segment(1));
        if (request.body().length > 0) {
            BodySchema.check("JobTerminateParameter", Json.parseObject(request.body()));
        }
        if (!job.state.equals("active")) {
            throw BatchError.conflict("JobCompleted", "The specified job is already in a completed state.");
        }
        tasks.terminateJob(job, "UserTerminate", state.now());
        return FakeResponse.empty(202).header("DataServiceId", state.baseUrl + "/jobs/" + job.id);
    }

    FakeResponse delete(FakeRequest request) {
        FakeJob job = state.job(request.segment(1));
        if (job.state.equals("active")) {
            tasks.terminateJob(job, "UserTerminate", state.now());
        }
        state.jobs.remove(FakeState.key(job.id));
        return FakeResponse.empty(202);
    }
}
