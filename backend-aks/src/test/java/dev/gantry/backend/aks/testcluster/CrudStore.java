package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.Map;

/**
 * Fabric8's CRUD dispatcher with one more write: an object stored as given. Its PUT deletes an object that is
 * marked for deletion and has no finalizers; a pod that is marked must stay until its kubelet has stopped it.
 */
final class CrudStore extends KubernetesCrudDispatcher {
    /** Stores {@code object} at {@code path} with a new resourceVersion, tells watchers MODIFIED; null if absent. */
    synchronized String write(String path, GenericKubernetesResource object) {
        AttributeSet pathKey = getKey(path);
        Map.Entry<AttributeSet, String> existing = findResource(pathKey);
        if (existing == null) {
            return null;
        }
        object.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
        String json = Json.write(object);
        processEvent(path, pathKey, existing.getKey(), object, json);
        return json;
    }
}
