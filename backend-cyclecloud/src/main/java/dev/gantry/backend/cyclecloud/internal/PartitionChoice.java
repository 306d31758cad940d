package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.backend.cyclecloud.internal.cyclecloud.ClusterLayout;
import dev.gantry.backend.cyclecloud.internal.cyclecloud.CycleCloudClient;
import dev.gantry.backend.cyclecloud.internal.login.Once;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which partition a plan's job goes to: the size's own entry in {@code partitions}; else, with a CycleCloud server
 * configured, the node array that starts the size (Spot plans on Spot arrays only); else {@code defaultPartition};
 * else the cluster's default partition. CycleCloud's layout is read once, on first use.
 */
public final class PartitionChoice {
    /** The setting that holds CycleCloud's address, as users write it. */
    static final String URL_SETTING = "backends.cyclecloud." + CycleCloudSettings.CYCLECLOUD + ".url";

    private final CycleCloudSettings settings;
    private final Optional<CycleCloudClient> client;
    private final Optional<Once<ClusterLayout>> layout;

    public PartitionChoice(CycleCloudSettings settings, BackendContext context) {
        this.settings = settings;
        this.client = settings.cycleCloud().map(endpoint -> new CycleCloudClient(endpoint, context.secrets(),
                context.logger()));
        this.layout = client.map(c -> new Once<>(c::clusterLayout));
    }

    /** The requests made to CycleCloud so far, retries included (none without a CycleCloud server). */
    public long calls() {
        return client.map(CycleCloudClient::calls).orElse(0L);
    }

    public Optional<String> partitionFor(Plan plan) {
        String size = plan.vmSize().name();
        if (settings.partitions().lists(size)) {
            return settings.partitions().partitionFor(size);
        }
        return layout().flatMap(l -> l.partitionFor(size, plan.spot())).or(() -> settings.partitions()
                .partitionFor(size));
    }

    /** What CycleCloud says against the plan: no node array starts its size, or none can hold its nodes. */
    public List<Problem> problems(Plan plan) {
        if (settings.partitions().lists(plan.vmSize().name())) {
            return List.of();
        }
        List<Problem> problems = new ArrayList<>();
        layout().ifPresent(l -> problems.addAll(l.problems(plan.vmSize().name(), plan.spot(), plan.nodes())));
        return problems;
    }

    /**
     * CycleCloud's node arrays, asked once; BACKEND_UNAVAILABLE naming the setting that holds CycleCloud's address when
     * it cannot be asked.
     */
    private Optional<ClusterLayout> layout() {
        try {
            return layout.map(Once::get);
        } catch (GantryException e) {
            if (e.code() != ErrorCode.BACKEND_UNAVAILABLE) {
                throw e;
            }
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot read the cluster's node arrays ("
                    + URL_SETTING + "): " + e.getMessage(), e);
        }
    }
}
