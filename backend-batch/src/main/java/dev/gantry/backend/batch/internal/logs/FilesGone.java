package dev.gantry.backend.batch.internal.logs;

/** Batch removed the files asked for: {@code TaskFilesCleanedup}, or the node that held them left the pool. */
final class FilesGone extends RuntimeException {
    FilesGone(String message) {
        super(message, null, false, false);
    }
}
