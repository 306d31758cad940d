package dev.gantry.core.advisor;

/**
 * GPUs per node and nodes of one candidate (rule 3 and M1): the explicit count, the smallest count whose memory holds
 * the model (with more nodes when eight GPUs are not enough), or one GPU; no GPUs for CPU plans.
 */
record Layout(int gpus, int nodes) {
    /** The layout every row of a search shares, or null when it depends on the row's memory per GPU (M1). */
    static Layout shared(Requirements req) {
        if (!req.gpu()) {
            return new Layout(0, req.baseNodes());
        }
        if (req.explicitGpus().isPresent()) {
            return new Layout(req.explicitGpus().getAsInt(), req.baseNodes());
        }
        return req.modelNeedGib().isPresent() ? null : new Layout(1, req.baseNodes());
    }

    /** The layout that holds the model on GPUs of {@code memoryPerGpu} GiB. */
    static Layout forModel(Requirements req, double memoryPerGpu) {
        double need = req.modelNeedGib().orElseThrow();
        int gpus = ModelSizing.gpusPerNode(need, memoryPerGpu, req.baseNodes());
        return new Layout(gpus, ModelSizing.nodesFor(need, memoryPerGpu, gpus, req.baseNodes()));
    }
}
