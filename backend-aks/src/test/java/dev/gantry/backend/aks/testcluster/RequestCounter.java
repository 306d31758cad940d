package dev.gantry.backend.aks.testcluster;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every HTTP request a user made, counted as the API server's audit log would list them: one per request, a watch
 * once per connection. Kept per user and per {@code VERB resource} (e.g. {@code list pods}).
 */
final class RequestCounter {
    private final Map<String, AtomicLong> byUser = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> byUserAndKind = new ConcurrentHashMap<>();
    private final List<String> forbidden = new CopyOnWriteArrayList<>();

    void record(String user, ApiRequest request) {
        byUser.computeIfAbsent(user, u -> new AtomicLong()).incrementAndGet();
        String kind = request.resourceRequest() ? request.verb() + " " + request.resourceWithSubresource()
                : request.verb() + " " + request.path();
        byUserAndKind.computeIfAbsent(user + "\t" + kind, k -> new AtomicLong()).incrementAndGet();
    }

    long total(String user) {
        AtomicLong count = byUser.get(user);
        return count == null ? 0 : count.get();
    }

    /** The user's requests by {@code VERB resource}, sorted, for a failing test to print. */
    Map<String, Long> breakdown(String user) {
        Map<String, Long> result = new TreeMap<>();
        byUserAndKind.forEach((key, count) -> {
            if (key.startsWith(user + "\t")) {
                result.put(key.substring(user.length() + 1), count.get());
            }
        });
        return result;
    }

    /** A request the user's Role did not allow, as the API server's audit log would name it. */
    void recordForbidden(String user, ApiRequest request) {
        forbidden.add(user + "\t" + request.method() + " " + request.path());
    }

    /** The user's forbidden requests ({@code METHOD PATH}), oldest first. */
    List<String> forbidden(String user) {
        return forbidden.stream().filter(f -> f.startsWith(user + "\t")).map(f -> f.substring(user.length() + 1))
                .toList();
    }

    void reset() {
        byUser.clear();
        byUserAndKind.clear();
        forbidden.clear();
    }
}
