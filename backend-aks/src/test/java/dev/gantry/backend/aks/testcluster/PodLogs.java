package dev.gantry.backend.aks.testcluster;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Each container's output, one file per container of a pod (by uid, so a replacement pod of the same name starts
 * empty), written by the kubelet: the process's stdout and stderr go straight into it, as the container runtime's
 * log does. Reads tail it and follow it until the container has ended.
 */
final class PodLogs {
    private final Path directory;
    private final Set<Path> ended = ConcurrentHashMap.newKeySet();

    PodLogs(Path directory) {
        this.directory = directory;
    }

    Path file(String namespace, String pod, String uid, String container) {
        return directory.resolve(namespace + "_" + pod + "_" + uid).resolve(container + ".log");
    }

    /** The file a starting container writes to, created empty. */
    Path open(String namespace, String pod, String uid, String container) {
        Path file = file(namespace, pod, uid, container);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ended.remove(file);
        return file;
    }

    void markEnded(Path file) {
        ended.add(file);
    }

    boolean started(Path file) {
        return Files.exists(file);
    }

    /** The last {@code tailLines} lines (all when absent), as bytes the way they were written. */
    static byte[] tail(Path file, Integer tailLines) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (tailLines == null) {
            return all;
        }
        Deque<Integer> starts = new ArrayDeque<>();
        starts.add(0);
        for (int i = 0; i < all.length; i++) {
            if (all[i] == '\n' && i + 1 < all.length) {
                starts.add(i + 1);
            }
        }
        while (starts.size() > tailLines && !starts.isEmpty()) {
            starts.removeFirst();
        }
        int from = tailLines == 0 ? all.length : starts.isEmpty() ? all.length : starts.getFirst();
        return java.util.Arrays.copyOfRange(all, from, all.length);
    }

    /**
     * Streams the file from its tail onwards until the container has ended and everything is read, or until
     * {@code stillWanted} says the reader went away (or the pod did).
     */
    void follow(Path file, Integer tailLines, Consumer<byte[]> out, BooleanSupplier stillWanted)
            throws IOException, InterruptedException {
        byte[] first = tail(file, tailLines);
        long position = Files.size(file);
        if (first.length > 0) {
            out.accept(first);
        }
        try (RandomAccessFile reader = new RandomAccessFile(file.toFile(), "r")) {
            while (stillWanted.getAsBoolean()) {
                boolean endedBeforeRead = ended.contains(file);
                long size = reader.length();
                if (size > position) {
                    byte[] chunk = new byte[(int) Math.min(size - position, 1 << 16)];
                    reader.seek(position);
                    reader.readFully(chunk);
                    position += chunk.length;
                    out.accept(chunk);
                    continue;
                }
                if (endedBeforeRead) {
                    return;
                }
                Thread.sleep(50);
            }
        }
    }
}
