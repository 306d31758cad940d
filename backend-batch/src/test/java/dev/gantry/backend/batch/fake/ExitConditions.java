package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A completed task's exit conditions, as Batch applies them: the first {@code exitCodes} entry with the exit code,
 * else the first {@code exitCodeRanges} entry holding it, else (for a failure) {@code default}. The dependency action
 * defaults to {@code satisfy} for success and {@code block} for a failure; the job action to {@code none}.
 */
final class ExitConditions {
    record Action(String jobAction, String dependencyAction) {
    }

    private ExitConditions() {
    }

    static Action action(JsonNode conditions, Integer exitCode, boolean failed) {
        JsonNode options = null;
        if (exitCode != null) {
            for (JsonNode mapping : conditions.path("exitCodes")) {
                if (options == null && mapping.get("code").asInt() == exitCode) {
                    options = mapping.get("exitOptions");
                }
            }
            for (JsonNode range : conditions.path("exitCodeRanges")) {
                if (options == null && range.get("start").asInt() <= exitCode && exitCode <= range.get("end").asInt()) {
                    options = range.get("exitOptions");
                }
            }
        }
        if (options == null && failed) {
            options = conditions.path("default");
        }
        String fallback = failed ? "block" : "satisfy";
        if (options == null || options.isMissingNode()) {
            return new Action("none", fallback);
        }
        return new Action(options.path("jobAction").asText("none"), options.path("dependencyAction").asText(fallback));
    }
}
