package dev.gantry.api.backend;

import dev.gantry.api.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The job-environment contract: the variables every backend sets for every job, with the same names and meanings,
 * so that a workload reads its rank, its peers and its checkpoint the same way on every orchestrator. The conformance
 * kit checks them. Backends build them with {@link #of}; the workload's own variables and secrets come first and
 * cannot override these (names starting with {@code GANTRY_} are refused in specs).
 *
 * <p>The process model: Gantry starts the workload's command once per node. A launcher the command runs (torchrun,
 * mpirun) starts the per-GPU processes itself and sets their {@code RANK}, {@code LOCAL_RANK} and {@code WORLD_SIZE}
 * from what it is given, typically {@code torchrun --nnodes=$GANTRY_NUM_NODES --node_rank=$NODE_RANK
 * --nproc_per_node=$GANTRY_GPUS_PER_NODE --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT}. For the process
 * Gantry starts, {@code RANK} is the node's rank, {@code LOCAL_RANK} 0 and {@code WORLD_SIZE} the number of nodes.
 */
public final class JobEnvironment {
    /** The backend's id of the job ({@link JobRef#id()}). */
    public static final String JOB_ID = "GANTRY_JOB_ID";
    /** The attempt, from 1 ({@link SubmitOptions#attempt()}). */
    public static final String ATTEMPT = "GANTRY_ATTEMPT";
    /** {@code 1} when the job resumes from its checkpoint ({@link SubmitOptions#resume()}), else {@code 0}. */
    public static final String RESUME = "GANTRY_RESUME";
    /** The workload's checkpoint path; set only when the workload has a checkpoint. */
    public static final String CHECKPOINT_DIR = "GANTRY_CHECKPOINT_DIR";
    /** This node's rank, 0 to {@code GANTRY_NUM_NODES - 1}; rank 0 is the master. */
    public static final String NODE_RANK_GANTRY = "GANTRY_NODE_RANK";
    /** The number of nodes the job runs on. */
    public static final String NUM_NODES = "GANTRY_NUM_NODES";
    /**
     * GPUs each node gives this job: the workload's {@code resources.gpus} when it asked for a number, else the
     * planned size's GPUs; 0 for a CPU job.
     */
    public static final String GPUS_PER_NODE = "GANTRY_GPUS_PER_NODE";
    /** The address of rank 0's node, where the ranks meet (torchrun, {@code torch.distributed}, NCCL). */
    public static final String MASTER_ADDR = "MASTER_ADDR";
    /** The TCP port on rank 0's node where the ranks meet. */
    public static final String MASTER_PORT = "MASTER_PORT";
    /** The number of processes Gantry starts: one per node. */
    public static final String WORLD_SIZE = "WORLD_SIZE";
    /** The node's rank, as torchrun's {@code --node_rank} reads it. */
    public static final String NODE_RANK = "NODE_RANK";
    /** The global rank of the process Gantry starts: the node's rank. */
    public static final String RANK = "RANK";
    /** The rank of the process Gantry starts among those on its node: 0. */
    public static final String LOCAL_RANK = "LOCAL_RANK";

    /** The port ranks meet at unless a backend has a reason to choose another: PyTorch's default. */
    public static final int DEFAULT_MASTER_PORT = 29500;

    /** Every name of the contract, in a stable order; {@link #CHECKPOINT_DIR} only applies with a checkpoint. */
    public static final List<String> NAMES = List.of(JOB_ID, ATTEMPT, RESUME, CHECKPOINT_DIR, NODE_RANK_GANTRY,
            NUM_NODES, GPUS_PER_NODE, MASTER_ADDR, MASTER_PORT, WORLD_SIZE, NODE_RANK, RANK, LOCAL_RANK);

    private JobEnvironment() {
    }

    /**
     * Where one node of a job meets the others.
     *
     * @param nodeRank this node's rank, from 0
     * @param masterAddress the address of rank 0's node as the other nodes reach it (for a one-node job, an address
     *     of that node, such as {@code 127.0.0.1})
     * @param masterPort the TCP port there
     */
    public record Rendezvous(int nodeRank, String masterAddress, int masterPort) {
        /**
         * Checks the rank, address and port.
         *
         * @param nodeRank the rank, from 0
         * @param masterAddress the master's address, not blank
         * @param masterPort the port, 1 to 65535
         * @throws NullPointerException when {@code masterAddress} is null
         * @throws IllegalArgumentException when a value is out of range or the address is blank
         */
        public Rendezvous {
            Objects.requireNonNull(masterAddress, "masterAddress");
            if (nodeRank < 0) {
                throw new IllegalArgumentException("nodeRank must be >= 0, got " + nodeRank);
            }
            if (masterAddress.isBlank()) {
                throw new IllegalArgumentException("masterAddress must not be blank");
            }
            if (masterPort < 1 || masterPort > 65535) {
                throw new IllegalArgumentException("masterPort must be 1-65535, got " + masterPort);
            }
        }

        /** {@return rank 0 of a one-node job: the ranks meet on the node itself, 127.0.0.1 at the default port} */
        public static Rendezvous singleNode() {
            return new Rendezvous(0, "127.0.0.1", DEFAULT_MASTER_PORT);
        }
    }

    /**
     * The contract's variables for one node of a job, in {@link #NAMES} order.
     *
     * @param jobId the backend's id of the job
     * @param plan the plan the job runs (nodes, the workload's GPUs per node and checkpoint)
     * @param options the submit's options (attempt, resume)
     * @param rendezvous this node's rank and where the nodes meet
     * @return the variables by name, in {@link #NAMES} order, {@link #CHECKPOINT_DIR} only with a checkpoint
     * @throws IllegalArgumentException when the rank is outside the plan's nodes
     */
    public static Map<String, String> of(String jobId, Plan plan, SubmitOptions options, Rendezvous rendezvous) {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(rendezvous, "rendezvous");
        if (rendezvous.nodeRank() >= plan.nodes()) {
            throw new IllegalArgumentException("nodeRank " + rendezvous.nodeRank() + " is outside a plan of "
                    + plan.nodes() + " node(s)");
        }
        String rank = Integer.toString(rendezvous.nodeRank());
        Map<String, String> env = new LinkedHashMap<>();
        env.put(JOB_ID, jobId);
        env.put(ATTEMPT, Integer.toString(options.attempt()));
        env.put(RESUME, options.resume() ? "1" : "0");
        plan.workload().checkpoint().ifPresent(checkpoint -> env.put(CHECKPOINT_DIR, checkpoint.path()));
        env.put(NODE_RANK_GANTRY, rank);
        env.put(NUM_NODES, Integer.toString(plan.nodes()));
        env.put(GPUS_PER_NODE, Integer.toString(plan.workload().resources().gpus().orElse(plan.gpusPerNode())));
        env.put(MASTER_ADDR, rendezvous.masterAddress());
        env.put(MASTER_PORT, Integer.toString(rendezvous.masterPort()));
        env.put(WORLD_SIZE, Integer.toString(plan.nodes()));
        env.put(NODE_RANK, rank);
        env.put(RANK, rank);
        env.put(LOCAL_RANK, "0");
        return env;
    }
}
