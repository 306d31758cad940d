package dev.gantry.hosts.events;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The Instance Metadata Service as Scheduled Events and the compute name/priority see it, on 127.0.0.1: requests
 * without the {@code Metadata: true} header get 400 as on Azure; tests inject events and read what was asked.
 */
public final class FakeMetadataService implements AutoCloseable {
    private final java.util.Map<String, String> namesByClient = new java.util.HashMap<>();
    /** One request as the fake saw it. */
    public record Seen(String method, String path, String query, boolean metadataHeader, String body) {
    }

    private final HttpServer server;
    private final List<Seen> seen = new ArrayList<>();
    private final List<String> events = new ArrayList<>();
    private volatile String vmName;
    private volatile String priority = "Spot";
    private volatile String document; // replaces the generated document when set: a broken service
    private long incarnation = 1;

    public FakeMetadataService(String vmName) throws IOException {
        this(vmName, InetAddress.getLoopbackAddress());
    }

    /**
     * A fake listening on {@code address}: the SSH test hosts, in network namespaces of their own, reach this
     * machine at the test bridge's address only, where a VM reaches its metadata service at 169.254.169.254.
     */
    public FakeMetadataService(String vmName, InetAddress address) throws IOException {
        this.vmName = vmName;
        server = HttpServer.create(new InetSocketAddress(address, 0), 0);
        server.createContext("/metadata/", this::handle);
        server.start();
    }

    /** The Scheduled Events URL, with the contract's api-version. */
    public String eventsUrl() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort()
                + "/metadata/scheduledevents?api-version=2020-07-01";
    }

    public synchronized void priority(String value) {
        priority = value;
    }

    /** Serves this text instead of the events document. */
    public synchronized void serveDocument(String text) {
        document = text;
    }

    /** Adds a Preempt event for these VMs, thirty seconds from now as Azure gives spot VMs; returns its EventId. */
    public String injectPreempt(String... resources) {
        return inject("Preempt", resources);
    }

    public synchronized String inject(String type, String... resources) {
        String id = UUID.randomUUID().toString().toUpperCase(Locale.ROOT);
        String notBefore = DateTimeFormatter.RFC_1123_DATE_TIME
                .format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(30));
        List<String> quoted = new ArrayList<>();
        for (String r : resources) {
            quoted.add("\"" + r + "\"");
        }
        events.add("{\"EventId\": \"" + id + "\", \"EventStatus\": \"Scheduled\", \"EventType\": \"" + type + "\", "
                + "\"ResourceType\": \"VirtualMachine\", \"Resources\": [" + String.join(", ", quoted) + "], "
                + "\"NotBefore\": \"" + notBefore + "\", \"Description\": \"\", \"EventSource\": \"Platform\", "
                + "\"DurationInSeconds\": -1}");
        incarnation++;
        return id;
    }

    /** The VM was evicted and is back (or replaced): its events are gone, as on a fresh VM. */
    public synchronized void clearEvents() {
        events.clear();
        incarnation++;
    }

    /**
     * Answers the VM-name question of one client address with its own name, as each VM's own metadata service
     * would: several test hosts can then share this fake and still be told apart by Scheduled Events.
     */
    public synchronized void vmNameOf(String clientAddress, String name) {
        namesByClient.put(clientAddress, name);
    }

    /**
     * Evicts a job the way Azure would: a Preempt event for its VM, then only status polls, so the backend must find
     * the event and evict the job itself within the timeout. The event is cleared afterwards, so later jobs run on a
     * VM with no eviction pending.
     */
    public void preemptAndAwait(Backend backend, JobRef job, String vm, Duration timeout)
            throws InterruptedException {
        injectPreempt(vm);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            JobStatus status = backend.status(job);
            while (status.state() != JobState.PREEMPTED) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(job + " was not evicted by a Preempt event for its VM: " + status);
                }
                Thread.sleep(50);
                status = backend.status(job);
            }
        } finally {
            clearEvents();
        }
    }

    public synchronized List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** The GETs of the Scheduled Events document so far. */
    public synchronized long eventQueries() {
        return seen.stream().filter(s -> s.method().equals("GET") && s.path().equals("/metadata/scheduledevents"))
                .count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getPath();
        boolean header = "true".equals(exchange.getRequestHeaders().getFirst("Metadata"));
        String reply;
        int code = 200;
        synchronized (this) {
            seen.add(new Seen(exchange.getRequestMethod(), path, exchange.getRequestURI().getQuery(), header, body));
            if (!header) {
                code = 400;
                reply = "{\"error\": \"Bad request. Required metadata header not specified\"}";
            } else if (path.equals("/metadata/scheduledevents")) {
                reply = document != null ? document : "{\"DocumentIncarnation\": " + incarnation + ", \"Events\": ["
                        + String.join(", ", events) + "]}";
            } else if (path.equals("/metadata/instance/compute/name")) {
                reply = namesByClient.getOrDefault(exchange.getRemoteAddress().getAddress().getHostAddress(),
                        vmName);
            } else if (path.equals("/metadata/instance/compute/priority")) {
                reply = priority;
            } else {
                code = 404;
                reply = "{\"error\": \"Not found\"}";
            }
        }
        byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
