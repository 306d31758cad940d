package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one JSON mapper of the test cluster: Fabric8's, so objects read and written here are the client's model. */
final class Json {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Json() {
    }

    static String write(Object value) {
        return SERIALIZATION.asJson(value);
    }

    static <T> T read(String json, Class<T> type) {
        return SERIALIZATION.unmarshal(json, type);
    }

    /** A JSON object from alternating keys and values, in that order. */
    static String object(Object... keysAndValues) {
        return write(map(keysAndValues));
    }

    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            Object value = keysAndValues[i + 1];
            map.put((String) keysAndValues[i], value);
        }
        return map;
    }
}
