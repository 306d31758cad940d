package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ResourceBundle;

/** A {@link System.Logger} that keeps every entry, at every level, for tests to read. */
final class RecordingLogger implements System.Logger {
    /** One logged entry: its level and its text, with the thrown exception's if any. */
    record Entry(Level level, String text) {
    }

    final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String getName() {
        return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
        entries.add(new Entry(level, message + (thrown == null ? "" : " " + thrown)));
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        entries.add(new Entry(level, params == null || params.length == 0 ? format
                : MessageFormat.format(format, params)));
    }
}
