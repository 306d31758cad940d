package dev.gantry.backend.batch.internal.logs;

import dev.gantry.api.backend.LogLine;

/** One stream of one rank, where it is now and how far it has been delivered. */
final class OutputFile {
    final LogLine.Stream stream;
    final int rank;
    FileLocation location;
    long offset;
    boolean started;
    LineBuffer lines = new LineBuffer();

    OutputFile(LogLine.Stream stream, int rank) {
        this.stream = stream;
        this.rank = rank;
    }

    /**
     * Points the file at {@code where}. A new place is a new run (a requeue, another node): its output is read from
     * its start.
     */
    void at(FileLocation where) {
        if (!where.equals(location)) {
            location = where;
            restart();
        }
    }

    /** Reads the file again from its start: a requeued task writes its output anew. */
    void restart() {
        offset = 0;
        started = false;
        lines = new LineBuffer();
    }

    LogLine line(String text) {
        return new LogLine(stream, rank, text);
    }
}
