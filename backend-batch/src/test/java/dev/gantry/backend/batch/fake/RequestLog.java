package dev.gantry.backend.batch.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Every request the fake received, in order, and how many went to each operation (each HTTP attempt counts). */
final class RequestLog {
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    synchronized void record(RecordedRequest request) {
        requests.add(request);
        counts.computeIfAbsent(request.operation(), k -> new AtomicInteger()).incrementAndGet();
    }

    synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    int count(String operation) {
        AtomicInteger count = counts.get(operation);
        return count == null ? 0 : count.get();
    }

    Map<String, Integer> counts() {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((operation, count) -> copy.put(operation, count.get()));
        return copy;
    }

    synchronized void clear() {
        requests.clear();
        counts.clear();
    }
}
