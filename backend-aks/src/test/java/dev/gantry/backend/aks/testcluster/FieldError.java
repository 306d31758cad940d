package dev.gantry.backend.aks.testcluster;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One field the API server refuses, as apimachinery's {@code field.Error} words it ({@code Error()} is
 * {@code FIELD: BODY}); {@link #invalid} is the 422 Status of {@code errors.NewInvalid} that carries them.
 */
record FieldError(String type, String field, String body) {
    static FieldError invalid(String field, Object value, String detail) {
        return new FieldError("FieldValueInvalid", field, "Invalid value: " + goValue(value) + ": " + detail);
    }

    /** An error whose value apimachinery leaves out ({@code field.OmitValueType}). */
    static FieldError invalidWithoutValue(String field, String detail) {
        return new FieldError("FieldValueInvalid", field, "Invalid value: " + detail);
    }

    /** An error whose value is shown as Go's {@code %#v} gives it (a slice: {@code []int32{1, 2}}). */
    static FieldError invalidRendered(String field, String renderedValue, String detail) {
        return new FieldError("FieldValueInvalid", field, "Invalid value: " + renderedValue + ": " + detail);
    }

    static FieldError notSupported(String field, String value, List<String> supported) {
        return new FieldError("FieldValueNotSupported", field, "Unsupported value: " + quoted(value)
                + ": supported values: " + String.join(", ", supported.stream().map(FieldError::quoted).toList()));
    }

    static FieldError required(String field, String detail) {
        return new FieldError("FieldValueRequired", field, "Required value" + (detail.isEmpty() ? "" : ": " + detail));
    }

    static FieldError tooLong(String field, int maxBytes) {
        return new FieldError("FieldValueTooLong", field, "Too long: may not be more than " + maxBytes + " bytes");
    }

    static FieldError duplicate(String field, Object value) {
        return new FieldError("FieldValueDuplicate", field, "Duplicate value: " + goValue(value));
    }

    String message() {
        return field + ": " + body;
    }

    /**
     * The Status of a 422: {@code KIND.GROUP "NAME" is invalid: ERROR} for one error, {@code [E1, E2]} for several
     * (repeats once), a cause per error.
     */
    static String invalidStatus(String kind, String group, String name, List<FieldError> errors) {
        Set<String> messages = new LinkedHashSet<>();
        List<Map<String, Object>> causes = new ArrayList<>();
        for (FieldError error : errors) {
            messages.add(error.message());
            causes.add(Json.map("reason", error.type(), "message", error.body(), "field", error.field()));
        }
        String qualified = group.isEmpty() ? kind : kind + "." + group;
        String all = messages.size() == 1 ? messages.iterator().next() : "[" + String.join(", ", messages) + "]";
        return Json.write(Json.map("kind", "Status", "apiVersion", "v1", "metadata", Map.of(), "status", "Failure",
                "message", qualified + " " + quoted(name) + " is invalid: " + all, "reason", "Invalid",
                "details", Json.map("name", name, "group", group, "kind", kind, "causes", causes), "code", 422));
    }

    /** Go's {@code %v} of a number or bool, {@code %q} of a string. */
    private static String goValue(Object value) {
        return value instanceof String text ? quoted(text) : String.valueOf(value);
    }

    static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
