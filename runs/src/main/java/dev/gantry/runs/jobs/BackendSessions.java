package dev.gantry.runs.jobs;

import dev.gantry.api.backend.Backend;

/** Gives the live backend for a name, creating it on first use; jobs remember which backend ran them. */
@FunctionalInterface
public interface BackendSessions {
    Backend backend(String name);
}
