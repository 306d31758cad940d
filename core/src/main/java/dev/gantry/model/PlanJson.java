package dev.gantry.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.Alternative;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.Plan;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import java.util.Locale;

/**
 * The stable JSON form of a plan ({@code gantry plan --json}), documented by {@code docs/schema/plan.schema.json}.
 * Field names and meanings never change; prices are USD rounded to four decimals.
 */
public final class PlanJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PlanJson() {
    }

    /**
     * The plan in its stable JSON form.
     *
     * @param plan the plan
     * @return the object: workload, size, region, nodes, GPUs, prices, image, orchestrator, reasons, alternatives
     *     and catalog, as the schema lists them
     */
    public static ObjectNode toJson(Plan plan) {
        VmSize size = plan.vmSize();
        ObjectNode json = NODES.objectNode();
        json.put("workload", plan.workload().name());
        json.put("vmSize", size.name());
        json.put("region", plan.region());
        ArrayNode zones = json.putArray("zones");
        plan.zones().forEach(zones::add);
        json.put("nodes", plan.nodes());
        json.put("spot", plan.spot());
        json.put("hardware", plan.hardware());
        if (size.gpu().isPresent()) {
            GpuSpec gpu = size.gpu().get();
            ObjectNode node = json.putObject("gpu");
            node.put("model", gpu.model());
            node.put("count", gpu.count());
            node.put("memoryGib", gpu.memoryGib());
            node.put("vendor", gpu.vendor().name().toLowerCase(Locale.ROOT));
        } else {
            json.putNull("gpu");
        }
        json.put("vcpus", size.vcpus());
        json.put("memoryGib", size.memoryGib());
        json.put("rdma", size.rdma());
        ObjectNode price = json.putObject("pricePerHour");
        price.put("perNode", Money.round(plan.pricePerHour().perNode()));
        price.put("total", Money.round(plan.pricePerHour().total()));
        price.put("currency", plan.pricePerHour().currency());
        if (plan.estimatedCost().isPresent()) {
            json.put("estimatedCost", Money.round(plan.estimatedCost().getAsDouble()));
        } else {
            json.putNull("estimatedCost");
        }
        ObjectNode image = json.putObject("image");
        image.put("urn", plan.image().id());
        image.put("name", plan.image().name());
        ObjectNode orchestrator = json.putObject("orchestrator");
        orchestrator.put("recommended", plan.orchestrator().recommended().backendName());
        orchestrator.put("reason", plan.orchestrator().reason());
        ArrayNode reasons = json.putArray("reasons");
        for (Reason reason : plan.reasons()) {
            reasons.addObject().put("rule", reason.rule()).put("text", reason.text());
        }
        ArrayNode alternatives = json.putArray("alternatives");
        for (Alternative alternative : plan.alternatives()) {
            alternatives.addObject()
                    .put("vmSize", alternative.vmSize())
                    .put("region", alternative.region())
                    .put("spot", alternative.spot())
                    .put("pricePerHourTotal", Money.round(alternative.pricePerHourTotal()))
                    .put("lostBecause", alternative.lostBecause());
        }
        ObjectNode catalog = json.putObject("catalog");
        catalog.put("source", plan.catalog().source());
        catalog.put("date", plan.catalog().date().toString());
        if (plan.catalog().priceDate().isPresent()) {
            catalog.put("priceDate", plan.catalog().priceDate().get().toString());
        } else {
            catalog.putNull("priceDate");
        }
        catalog.put("priceDateNote", CatalogAge.provenance(plan.catalog()));
        return json;
    }

    /**
     * A plan that could not be made: {@code {"workload": NAME, "error": {"code": CODE, "message": TEXT}}}.
     *
     * @param workload the workload's name
     * @param e why it could not be planned
     * @return the object
     */
    public static ObjectNode error(String workload, GantryException e) {
        ObjectNode json = NODES.objectNode();
        json.put("workload", workload);
        ObjectNode error = json.putObject("error");
        error.put("code", e.code().name());
        error.put("message", e.getMessage());
        return json;
    }
}
