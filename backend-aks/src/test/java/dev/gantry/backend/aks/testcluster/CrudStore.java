package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.lang.reflect.Field;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.UnaryOperator;

/**
 * Fabric8's CRUD dispatcher with one more write: an object stored as given. Its PUT deletes an object that is
 * marked for deletion and has no finalizers; a pod that is marked must stay until its kubelet has stopped it.
 */
final class CrudStore extends KubernetesCrudDispatcher {
    /**
     * The dispatcher's own lock (private there): its handlers and a new watch's first listing hold it while they
     * use the map, so a write from here must hold it too.
     */
    private final ReadWriteLock crudLock;
    /** The dispatcher's watches (private there), to which every write sends its event. */
    private final Set<?> watches;

    CrudStore() {
        crudLock = (ReadWriteLock) privateField("lock");
        watches = (Set<?>) privateField("watchEventListeners");
    }

    private Object privateField(String name) {
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField(name);
            field.setAccessible(true);
            return field.get(this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Fabric8's KubernetesCrudDispatcher changed: no " + name + " field", e);
        }
    }

    /**
     * Takes a watch out of the set every write sends to, before it is closed. Why: Fabric8's watch, once closed, shuts
     * its sender down and waits for it before it leaves that set, and a write meeting it in between throws
     * {@code RejectedExecutionException} out of the write's request, which is then never answered (a create in
     * ApiServerTest waited out its client's minute so). Under the write lock, so no write is sending meanwhile.
     */
    void unwatch(Object watch) {
        crudLock.writeLock().lock();
        try {
            watches.remove(watch);
        } finally {
            crudLock.writeLock().unlock();
        }
    }

    /**
     * Stores a new object at {@code collectionPath} as the API server creates one: name from generateName, a random
     * uid, creationTimestamp, resourceVersion and generation 1, then {@code admit} (the defaults), and one ADDED event
     * with all of it. Null when an object of that name exists.
     */
    String insert(String collectionPath, GenericKubernetesResource object, UnaryOperator<GenericKubernetesResource> admit) {
        crudLock.writeLock().lock();
        try {
            var metadata = object.getMetadata();
            if ((metadata.getName() == null || metadata.getName().isEmpty()) && metadata.getGenerateName() != null) {
                metadata.setName(metadata.getGenerateName() + NameSuffix.random());
            }
            String path = collectionPath + "/" + metadata.getName();
            if (findResource(getKey(path)) != null) {
                return null;
            }
            ApiRequest collection = ApiRequest.parse("POST", collectionPath);
            if (!collection.namespace().isEmpty()) {
                metadata.setNamespace(collection.namespace());
            }
            metadata.setUid(UUID.randomUUID().toString());
            metadata.setCreationTimestamp(ObjectStore.timestamp(Instant.now()));
            metadata.setGeneration(1L);
            metadata.setResourceVersion(String.valueOf(requestResourceVersion()));
            GenericKubernetesResource admitted = admit.apply(object);
            String json = Json.write(admitted);
            processEvent(path, getKey(path), null, admitted, json);
            return json;
        } finally {
            crudLock.writeLock().unlock();
        }
    }

    /** A deleted object as watchers matched it (its key in the store) and its last state. */
    record Removed(AttributeSet key, String json) {
    }

    /** Deletes the object at {@code path} (watchers get DELETED); what it was, or null when there was none. */
    Removed remove(String path) {
        crudLock.writeLock().lock();
        try {
            Map.Entry<AttributeSet, String> existing = findResource(getKey(path));
            if (existing == null) {
                return null;
            }
            handleDelete(path);
            return new Removed(existing.getKey(), existing.getValue());
        } finally {
            crudLock.writeLock().unlock();
        }
    }

    /** Whether an object stored under {@code key} is one a watch or list of {@code path} selects. */
    boolean selects(String path, AttributeSet key) {
        return key.matches(getAttributeExtractor().fromPath(path));
    }

    /** Stores {@code object} at {@code path} with a new resourceVersion, tells watchers MODIFIED; null if absent. */
    String write(String path, GenericKubernetesResource object) {
        crudLock.writeLock().lock();
        try {
            AttributeSet pathKey = getKey(path);
            Map.Entry<AttributeSet, String> existing = findResource(pathKey);
            if (existing == null) {
                return null;
            }
            object.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
            String json = Json.write(object);
            processEvent(path, pathKey, existing.getKey(), object, json);
            return json;
        } finally {
            crudLock.writeLock().unlock();
        }
    }
}
