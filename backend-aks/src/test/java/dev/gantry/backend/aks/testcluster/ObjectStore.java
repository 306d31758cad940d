package dev.gantry.backend.aks.testcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The cluster's objects: Fabric8's CRUD store (which keeps them, answers reads, updates and patches, and feeds
 * watches) with what an API server adds and CRUD lacks: creation with the API server's defaults and errors; a
 * DELETE of a running pod only marks it (deletionTimestamp) until its kubelet has stopped it; an object with
 * finalizers stays until they are removed; {@code propagationPolicy: Foreground} keeps the owner until the garbage
 * collector has deleted its dependents, and {@code Orphan} takes the owner reference off them; deletions replayed to
 * a watch from an older resourceVersion; list pages. Every request of the front and every controller goes through
 * here, one at a time.
 */
final class ObjectStore {
    static final String FOREGROUND_DELETION = "foregroundDeletion";
    private static final int MAX_TOMBSTONES = 10_000;

    private final CrudStore crud = new CrudStore();
    private final Clock clock;

    private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();
    private final Deque<Tombstone> tombstones = new ArrayDeque<>();
    private final AtomicLong changes = new AtomicLong();
    private final Map<String, CachedList> listCache = new ConcurrentHashMap<>();

    ObjectStore(Clock clock) {
        this.clock = clock;
    }

    /** Called after every change, so the control loop runs at once instead of at its next tick. */
    void onChange(Runnable listener) {
        changeListeners.add(listener);
    }

    /** A request as the front received it, answered as the API server would. */
    synchronized MockResponse dispatch(RecordedRequest request, ApiRequest parsed) {
        if (parsed.resourceRequest() && parsed.verb().equals("delete") && parsed.subresource().isEmpty()) {
            return delete(parsed.path(), DeleteOptions.of(request.getUtf8Body(), parsed));
        }
        if (parsed.resourceRequest() && parsed.verb().equals("create") && parsed.subresource().isEmpty()) {
            return create(parsed, request.getUtf8Body());
        }
        ObjectValidation.Verdict verdict = validateWrite(request, parsed);
        if (verdict.refusal().isPresent()) {
            return verdict.refusal().get();
        }
        MockResponse response = verdict.warn(crud.dispatch(asCrudUnderstandsIt(withBody(request, verdict.body()))));
        if (parsed.isMutation()) {
            afterWrite(parsed);
            changed();
        }
        if (parsed.verb().equals("list") && parsed.parameter("limit").isPresent() && response.code() == 200) {
            return ListPages.page(response, parsed);
        }
        return response;
    }

    /** An update's body or a patch's result, checked as the API server checks what it is about to store. */
    private ObjectValidation.Verdict validateWrite(RecordedRequest request, ApiRequest parsed) {
        String body = request.getUtf8Body();
        boolean objectWrite = parsed.resourceRequest() && !parsed.name().isEmpty()
                && (parsed.subresource().isEmpty() || parsed.subresource().equals("status"));
        if (objectWrite && parsed.verb().equals("update")) {
            return ObjectValidation.ofBody(parsed, body);
        }
        if (objectWrite && parsed.verb().equals("patch")) {
            MockResponse current = crud.dispatch(request(HttpMethod.GET, parsed.path().replaceAll("/status$", ""), ""));
            if (current.code() == 200) {
                return ObjectValidation.ofPatch(parsed, request.getHeader("Content-Type"), body(current), body);
            }
        }
        return new ObjectValidation.Verdict(Optional.empty(), null, List.of());
    }

    /** {@code request} with {@code body} (the same request when the body is null or unchanged). */
    private static RecordedRequest withBody(RecordedRequest request, String body) {
        if (body == null || body.equals(request.getUtf8Body())) {
            return request;
        }
        return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
                new Buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * A strategic merge patch (what kubectl and Fabric8's {@code patch(String)} send) as a JSON merge patch, which
     * CRUD applies: the same for maps and scalars (annotations, labels, {@code suspend}); lists are replaced whole
     * instead of merged by key.
     */
    private static RecordedRequest asCrudUnderstandsIt(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        if (type == null || !type.startsWith("application/strategic-merge-patch+json")) {
            return request;
        }
        Headers headers = request.getHeaders().newBuilder().set("Content-Type", "application/merge-patch+json")
                .build();
        return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), headers,
                new Buffer(request.getBody().getBytes()));
    }

    /** A POST of a new object: 409 AlreadyExists or 422 as the API server words them, else 201 with the object. */
    private MockResponse create(ApiRequest parsed, String body) {
        GenericKubernetesResource object;
        try {
            object = Json.read(body, GenericKubernetesResource.class);
        } catch (RuntimeException e) {
            return new MockResponse().setResponseCode(400).setBody(status(400, "BadRequest",
                    "the body of the request was in an unknown format: " + e.getMessage(), parsed, ""));
        }
        if (object == null || object.getMetadata() == null || ((object.getMetadata().getName() == null
                || object.getMetadata().getName().isEmpty()) && object.getMetadata().getGenerateName() == null)) {
            String kind = object == null || object.getKind() == null ? parsed.resource() : object.getKind();
            return new MockResponse().setResponseCode(422).setBody(FieldError.invalidStatus(kind, parsed.group(), "",
                    List.of(FieldError.required("metadata.name", "name or generateName is required"))));
        }
        ObjectValidation.Verdict verdict = ObjectValidation.ofBody(parsed, body);
        if (verdict.refusal().isPresent()) {
            return verdict.refusal().get();
        }
        if (!verdict.body().equals(body)) {
            object = Json.read(verdict.body(), GenericKubernetesResource.class);
        }
        String written = crud.insert(parsed.path(), object, this::admit);
        if (written == null) {
            String name = object.getMetadata().getName();
            return new MockResponse().setResponseCode(409).setBody(status(409, "AlreadyExists",
                    qualified(parsed) + " \"" + name + "\" already exists", parsed, name));
        }
        changed();
        return verdict.warn(new MockResponse().setResponseCode(201).setBody(written));
    }

    /** The API server's defaults for what is created (see {@link Admission}); other kinds as given. */
    private GenericKubernetesResource admit(GenericKubernetesResource object) {
        HasMetadata admitted = switch (String.valueOf(object.getKind())) {
            case "Job" -> Admission.defaults(Json.SERIALIZATION.convertValue(object,
                    io.fabric8.kubernetes.api.model.batch.v1.Job.class));
            case "Pod" -> Admission.defaults(Json.SERIALIZATION.convertValue(object, Pod.class));
            default -> null;
        };
        return admitted == null ? object : Json.SERIALIZATION.convertValue(admitted, GenericKubernetesResource.class);
    }

    synchronized <T extends HasMetadata> List<T> list(String collectionPath, Class<T> type) {
        MockResponse response = crud.dispatch(request(HttpMethod.GET, collectionPath, ""));
        GenericKubernetesResource list = Json.read(body(response), GenericKubernetesResource.class);
        List<T> items = new ArrayList<>();
        Object raw = list.getAdditionalProperties().get("items");
        if (raw instanceof List<?> values) {
            for (Object value : values) {
                items.add(Json.SERIALIZATION.convertValue(value, type));
            }
        }
        return items;
    }

    synchronized <T extends HasMetadata> Optional<T> get(String path, Class<T> type) {
        MockResponse response = crud.dispatch(request(HttpMethod.GET, path, ""));
        return response.code() == 200 ? Optional.of(Json.read(body(response), type)) : Optional.empty();
    }

    synchronized <T extends HasMetadata> T create(String collectionPath, T object) {
        String written = crud.insert(collectionPath, Json.SERIALIZATION.convertValue(object,
                GenericKubernetesResource.class), this::admit);
        if (written == null) {
            throw new IllegalStateException("POST " + collectionPath + ": " + object.getMetadata().getName()
                    + " already exists");
        }
        changed();
        @SuppressWarnings("unchecked")
        T created = (T) Json.read(written, object.getClass());
        return created;
    }

    /**
     * Replaces the object (status included); fails with {@link Conflict} when it changed since it was read, as the
     * API server does, so controllers work on what is there now.
     */
    synchronized <T extends HasMetadata> T replace(String path, T object) {
        Optional<GenericKubernetesResource> current = get(path, GenericKubernetesResource.class);
        if (current.isEmpty()) {
            throw new Conflict("gone: " + path);
        }
        String expected = object.getMetadata().getResourceVersion();
        if (expected != null && !expected.equals(current.get().getMetadata().getResourceVersion())) {
            throw new Conflict("changed since read: " + path);
        }
        String written = crud.write(path, Json.SERIALIZATION.convertValue(object, GenericKubernetesResource.class));
        afterWrite(ApiRequest.parse("PUT", path));
        changed();
        @SuppressWarnings("unchecked")
        T replaced = (T) Json.read(written, object.getClass());
        return replaced;
    }

    /**
     * Reads the object at {@code path}, changes it and writes it back, all while holding the store, so nothing else
     * writes in between (a controller's read-modify-write without the 409 retry). Nothing happens when the object is
     * gone, or is another object of the same name than {@code uid} (when given), or {@code change} returns null.
     */
    synchronized <T extends HasMetadata> Optional<T> update(String path, Class<T> type, String uid,
            UnaryOperator<T> change) {
        Optional<T> current = get(path, type);
        if (current.isEmpty() || (uid != null && !uid.equals(current.get().getMetadata().getUid()))) {
            return Optional.empty();
        }
        T changed = change.apply(current.get());
        return changed == null ? current : Optional.of(replace(path, changed));
    }

    synchronized MockResponse delete(String path, DeleteOptions options) {
        Optional<GenericKubernetesResource> found = get(path, GenericKubernetesResource.class);
        if (found.isEmpty()) {
            return new MockResponse().setResponseCode(404).setBody(notFound(ApiRequest.parse("DELETE", path)));
        }
        GenericKubernetesResource object = found.get();
        if (options.propagation().equals("Orphan")) {
            orphanDependents(object);
        }
        boolean isPod = "Pod".equals(object.getKind());
        boolean runningPod = isPod && !podMayGoAtOnce(Json.SERIALIZATION.convertValue(object, Pod.class));
        boolean foreground = options.propagation().equals("Foreground") && !isPod;
        List<String> finalizers = new ArrayList<>(object.getMetadata().getFinalizers());
        if (foreground && !finalizers.contains(FOREGROUND_DELETION)) {
            finalizers.add(FOREGROUND_DELETION);
        }
        boolean forced = options.gracePeriodSeconds().orElse(-1L) == 0;
        if (finalizers.isEmpty() && (!runningPod || forced)) {
            remove(path);
            changed();
            return new MockResponse().setResponseCode(200).setBody(Json.write(object));
        }
        if (object.getMetadata().getDeletionTimestamp() == null) {
            object.getMetadata().setDeletionTimestamp(timestamp(clock.instant()));
        }
        if (forced) {
            object.getMetadata().setDeletionGracePeriodSeconds(0L);
        } else if (object.getMetadata().getDeletionGracePeriodSeconds() == null) {
            object.getMetadata().setDeletionGracePeriodSeconds(options.gracePeriodSeconds().orElse(30L));
        }
        object.getMetadata().setFinalizers(finalizers);
        String written = crud.write(path, object);
        afterWrite(ApiRequest.parse("PUT", path));
        changed();
        return new MockResponse().setResponseCode(200).setBody(written);
    }

    /**
     * A resourceVersion newer than every object's now (it takes one, as a write would): the point up to which a
     * test compacts the history, as etcd's compaction does.
     */
    synchronized long nextResourceVersion() {
        return crud.requestResourceVersion();
    }

    /** Removes an object marked for deletion once nothing holds it any more. */
    private void afterWrite(ApiRequest written) {
        if (!written.resourceRequest() || written.name().isEmpty()) {
            return;
        }
        String path = written.path().replaceAll("/(status|eviction)$", "");
        Optional<GenericKubernetesResource> found = get(path, GenericKubernetesResource.class);
        if (found.isEmpty() || found.get().getMetadata().getDeletionTimestamp() == null
                || !found.get().getMetadata().getFinalizers().isEmpty()) {
            return;
        }
        GenericKubernetesResource object = found.get();
        boolean holdsProcesses = "Pod".equals(object.getKind())
                && !podMayGoAtOnce(Json.SERIALIZATION.convertValue(object, Pod.class))
                && !Long.valueOf(0).equals(object.getMetadata().getDeletionGracePeriodSeconds());
        if (!holdsProcesses) {
            remove(path);
        }
    }

    private void remove(String path) {
        CrudStore.Removed removed = crud.remove(path);
        if (removed != null) {
            tombstones.addLast(new Tombstone(crud.requestResourceVersion(), removed));
            while (tombstones.size() > MAX_TOMBSTONES) {
                tombstones.removeFirst();
            }
        }
    }

    /** Takes a watch out of those writes send to, before it is closed ({@link CrudStore#unwatch} says why). */
    void unwatch(Object watch) {
        crud.unwatch(watch);
    }

    /**
     * The DELETED events a watch from {@code resourceVersion} on would have had and Fabric8's CRUD watch cannot
     * give: it starts with the objects there now and then what changes, so an object deleted between a client's
     * list and its watch (or while its watch was cut) would stay in the client's cache. Objects of that name that
     * exist again are left out (the watch's ADDED of the new one follows).
     */
    synchronized List<String> deletedSince(String watchPath) {
        ApiRequest watch = ApiRequest.parse("GET", watchPath);
        Optional<Long> since = watch.parameter("resourceVersion").filter(v -> v.matches("[0-9]+")).map(Long::valueOf)
                .filter(v -> v > 0);
        if (since.isEmpty()) {
            return List.of();
        }
        String collection = watch.path();
        Optional<String> name = watch.parameter("fieldSelector").filter(f -> f.startsWith("metadata.name="))
                .map(f -> f.substring("metadata.name=".length()));
        List<String> events = new ArrayList<>();
        for (Tombstone tombstone : tombstones) {
            if (tombstone.resourceVersion() <= since.get()
                    || !crud.selects(watchPath.replaceFirst("[?&]fieldSelector=[^&]*", ""), tombstone.removed().key())) {
                continue;
            }
            GenericKubernetesResource object = Json.read(tombstone.removed().json(), GenericKubernetesResource.class);
            String objectName = object.getMetadata().getName();
            if (name.isPresent() && !name.get().equals(objectName)) {
                continue;
            }
            String objectPath = object.getMetadata().getNamespace() == null ? collection + "/" + objectName
                    : collectionIn(collection, object.getMetadata().getNamespace()) + "/" + objectName;
            if (get(objectPath, GenericKubernetesResource.class).isPresent()) {
                continue;
            }
            object.getMetadata().setResourceVersion(String.valueOf(tombstone.resourceVersion()));
            events.add(Json.write(Json.map("type", "DELETED", "object", object)));
        }
        return events;
    }

    /** {@code /api/v1/pods} or {@code /api/v1/namespaces/x/pods} as the collection in {@code namespace}. */
    private static String collectionIn(String collection, String namespace) {
        String[] parts = collection.split("/namespaces/[^/]+/");
        if (parts.length == 2) {
            return parts[0] + "/namespaces/" + namespace + "/" + parts[1];
        }
        int last = collection.lastIndexOf('/');
        return collection.substring(0, last) + "/namespaces/" + namespace + collection.substring(last);
    }

    private record Tombstone(long resourceVersion, CrudStore.Removed removed) {
    }

    /** A pod no kubelet runs (never bound, or already ended) needs no graceful termination. */
    static boolean podMayGoAtOnce(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getSpec() == null || pod.getSpec().getNodeName() == null || "Succeeded".equals(phase)
                || "Failed".equals(phase);
    }

    private void orphanDependents(GenericKubernetesResource owner) {
        String uid = owner.getMetadata().getUid();
        String namespace = owner.getMetadata().getNamespace();
        if (namespace == null) {
            return;
        }
        for (String collection : List.of(Paths.pods(namespace), Paths.services(namespace), Paths.secrets(namespace))) {
            for (GenericKubernetesResource dependent : list(collection, GenericKubernetesResource.class)) {
                List<OwnerReference> refs = dependent.getMetadata().getOwnerReferences();
                if (refs.stream().anyMatch(r -> uid.equals(r.getUid()))) {
                    dependent.getMetadata().setOwnerReferences(
                            refs.stream().filter(r -> !uid.equals(r.getUid())).toList());
                    crud.write(collection + "/" + dependent.getMetadata().getName(), dependent);
                }
            }
        }
    }

    static String notFound(ApiRequest request) {
        return status(404, "NotFound", qualified(request) + " \"" + request.name() + "\" not found", request,
                request.name());
    }

    /** {@code jobs.batch}, {@code pods}: how the API server names a resource in its messages. */
    static String qualified(ApiRequest request) {
        return request.group().isEmpty() ? request.resource() : request.resource() + "." + request.group();
    }

    private static String status(int code, String reason, String message, ApiRequest request, String name) {
        return Json.write(Json.map("kind", "Status", "apiVersion", "v1", "metadata", Map.of(), "status", "Failure",
                "message", message, "reason", reason,
                "details", Json.map("name", name, "group", request.group(), "kind", request.resource()),
                "code", code));
    }

    static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private void changed() {
        changes.incrementAndGet();
        changeListeners.forEach(Runnable::run);
    }

    /** How many changes the store has seen: a list read at the same count is still current. */
    long changes() {
        return changes.get();
    }

    /**
     * The objects of a collection, read again only when the store changed since the last read of it: the control
     * loop asks for the same lists several times a pass, and most passes change nothing.
     */
    <T extends HasMetadata> List<T> cachedList(String collectionPath, Class<T> type) {
        long now = changes.get();
        CachedList cached = listCache.get(collectionPath);
        if (cached != null && cached.changes() == now && cached.type() == type) {
            @SuppressWarnings("unchecked")
            List<T> items = (List<T>) cached.items();
            return items;
        }
        List<T> items = List.copyOf(list(collectionPath, type));
        listCache.put(collectionPath, new CachedList(now, type, items));
        return items;
    }

    private record CachedList(long changes, Class<?> type, List<?> items) {
    }

    private static RecordedRequest request(HttpMethod method, String path, String body) {
        Headers headers = Headers.builder().add("Content-Type", "application/json").build();
        return new RecordedRequest("HTTP/1.1", method, path, headers,
                new Buffer(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static String body(MockResponse response) {
        return response.getBody() == null ? "" : new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    /** The object changed (or went) since it was read: read it again and retry, as a controller does. */
    static final class Conflict extends RuntimeException {
        Conflict(String message) {
            super(message);
        }
    }
}
