package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.backend.batch.fake.autoscale.FormulaEvaluator;
import dev.gantry.backend.batch.fake.autoscale.FormulaException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pools and their nodes: add, get, list, delete, enable and evaluate autoscale, remove nodes, list and get nodes. */
final class PoolRoutes {
    private final FakeState state;
    private final NodeLifecycle nodes;
    private final Map<String, java.time.Instant> deletions;

    PoolRoutes(FakeState state, NodeLifecycle nodes, Map<String, java.time.Instant> deletions) {
        this.state = state;
        this.nodes = nodes;
        this.deletions = deletions;
    }

    FakeResponse add(FakeRequest request) {
        FakePool pool = add(Json.parseObject(request.body()));
        return Replies.created(state.baseUrl, "/pools/" + pool.id);
    }

    /** Adds a pool from a data-plane body (also for pools Resource Manager creates, which share this state). */
    FakePool add(ObjectNode body) {
        BodySchema.check("PoolAddParameter", body);
        String id = Ids.check("id", body.get("id").asText());
        FakePool existing = state.pools.get(FakeState.key(id));
        if (existing != null) {
            throw existing.state.equals("deleting")
                    ? BatchError.conflict("PoolBeingDeleted", "The specified pool has been marked for deletion "
                            + "and is being reclaimed.")
                    : BatchError.conflict("PoolExists", "The specified pool already exists.");
        }
        FakePool pool = new FakePool(id, body, state.now());
        if (body.path("enableAutoScale").asBoolean(false)) {
            String formula = body.path("autoScaleFormula").asText(null);
            if (formula == null) {
                throw BatchError.missingProperty("autoScaleFormula");
            }
            enable(pool, formula, body.path("autoScaleEvaluationInterval").asText(null));
        } else {
            pool.targetDedicated = body.path("targetDedicatedNodes").asInt(0);
            pool.targetLowPriority = body.path("targetLowPriorityNodes").asInt(0);
        }
        state.pools.put(FakeState.key(id), pool);
        state.poolIds.add(id);
        return pool;
    }

    FakeResponse get(FakeRequest request) {
        FakePool pool = state.pool(request.segment(1));
        return Replies.entity(state.baseUrl, "pools/@Element", ODataList.project(pool.json(state.baseUrl),
                ODataList.select(request.param("$select"), Selectable.POOL)));
    }

    /** 200 when the pool exists, Batch's 404 otherwise (a HEAD answer has no body). */
    FakeResponse exists(FakeRequest request) {
        state.pool(request.segment(1));
        return FakeResponse.empty(200);
    }

    FakeResponse list(FakeRequest request) {
        List<ObjectNode> pools = new ArrayList<>();
        state.pools.values().forEach(pool -> pools.add(pool.json(state.baseUrl)));
        return ODataList.page(request, state.baseUrl, "pools", pools, FilterTable.POOLS, Selectable.POOL);
    }

    FakeResponse delete(FakeRequest request) {
        delete(state.pool(request.segment(1)));
        return FakeResponse.empty(202);
    }

    /** Starts deleting the pool (its nodes go at once, the pool after the deletion delay); nothing if it already is. */
    void delete(FakePool pool) {
        if (!pool.state.equals("deleting")) {
            nodes.deletePool(pool, state.now());
            deletions.put(pool.id, state.now().plus(state.options.poolDeletion));
            state.poolDeleting.accept(pool.id);
        }
    }

    FakeResponse enableAutoScale(FakeRequest request) {
        FakePool pool = activePool(request.segment(1));
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("PoolEnableAutoScaleParameter", body);
        String formula = body.path("autoScaleFormula").asText(pool.autoScaleFormula);
        if (formula == null) {
            throw BatchError.missingProperty("autoScaleFormula");
        }
        enable(pool, formula, body.path("autoScaleEvaluationInterval").asText(null));
        pool.lastModified = state.now();
        return FakeResponse.empty(200).header("DataServiceId", state.baseUrl + "/pools/" + pool.id);
    }

    FakeResponse evaluateAutoScale(FakeRequest request) {
        FakePool pool = activePool(request.segment(1));
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("PoolEvaluateAutoScaleParameter", body);
        if (!pool.enableAutoScale) {
            throw BatchError.conflict("AutoScaleNotEnabled", "Automatic scaling is not enabled for this pool.");
        }
        // A formula Batch cannot parse is refused (400); one that parses answers its run, an evaluation error included.
        ObjectNode run = nodes.evaluate(pool, parse(body.get("autoScaleFormula").asText()), false, state.now());
        return Replies.entity(state.baseUrl, "Microsoft.Azure.Batch.Protocol.Entities.AutoScaleRun", run);
    }

    FakeResponse removeNodes(FakeRequest request) {
        FakePool pool = activePool(request.segment(1));
        ObjectNode body = Json.parseObject(request.body());
        BodySchema.check("NodeRemoveParameter", body);
        if (body.get("nodeList").size() > 100) {
            throw BatchError.invalidProperty("nodeList", Integer.toString(body.get("nodeList").size()),
                    "at most 100 nodes may be removed at once");
        }
        for (JsonNode id : body.get("nodeList")) {
            FakeNode node = pool.nodes.get(id.asText());
            if (node == null) {
                throw BatchError.invalidProperty("nodeList", id.asText(), "no such node in the pool");
            }
        }
        for (JsonNode id : body.get("nodeList")) {
            nodes.remove(pool, pool.nodes.get(id.asText()), state.now());
            if (pool.enableAutoScale) {
                continue;
            }
            if (pool.nodes.get(id.asText()) == null) {
                if (id.asText().endsWith("_d")) {
                    pool.targetDedicated = Math.max(0, pool.targetDedicated - 1);
                } else {
                    pool.targetLowPriority = Math.max(0, pool.targetLowPriority - 1);
                }
            }
        }
        return FakeResponse.empty(202);
    }

    FakeResponse listNodes(FakeRequest request) {
        FakePool pool = state.pool(request.segment(1));
        List<ObjectNode> list = new ArrayList<>();
        pool.nodes.values().forEach(node -> list.add(node.json(state.baseUrl)));
        return ODataList.page(request, state.baseUrl, "nodes", list, FilterTable.NODES, Selectable.NODE);
    }

    FakeResponse getNode(FakeRequest request) {
        FakeNode node = state.node(request.segment(1), request.segment(3));
        return Replies.entity(state.baseUrl, "nodes/@Element", ODataList.project(node.json(state.baseUrl),
                ODataList.select(request.param("$select"), Selectable.NODE)));
    }

    private FakePool activePool(String id) {
        FakePool pool = state.pool(id);
        if (pool.state.equals("deleting")) {
            throw BatchError.conflict("PoolBeingDeleted", "The specified pool has been marked for deletion and is "
                    + "being reclaimed.");
        }
        return pool;
    }

    private void enable(FakePool pool, String formula, String interval) {
        FormulaEvaluator parsed = parse(formula);
        pool.enableAutoScale = true;
        pool.autoScaleFormula = formula;
        if (interval != null) {
            try {
                pool.autoScaleInterval = Duration.parse(interval);
            } catch (DateTimeParseException e) {
                throw BatchError.invalidProperty("autoScaleEvaluationInterval", interval, "not an ISO-8601 duration");
            }
            if (pool.autoScaleInterval.compareTo(Duration.ofMinutes(5)) < 0
                    || pool.autoScaleInterval.compareTo(Duration.ofHours(168)) > 0) {
                throw BatchError.invalidProperty("autoScaleEvaluationInterval", interval,
                        "must be from 5 minutes to 168 hours");
            }
        }
        pool.autoScale = parsed;
        pool.nextEvaluation = state.now();
    }

    /** The formula parsed, or Batch's refusal: its code, message and {@code Message} detail (line and column). */
    private static FormulaEvaluator parse(String formula) {
        try {
            return FormulaEvaluator.parse(formula);
        } catch (FormulaException e) {
            throw new BatchError(400, e.code(), e.getMessage(), e.values());
        }
    }
}
