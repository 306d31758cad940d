-- Each run's history, numbered from 1 as job_events are (under the run's lock, the next number is its last plus one);
-- step is NULL for an event of the run as a whole. Each attempt also keeps how often its capacity was evicted and,
-- once it ended, how (an AttemptOutcome's name; NULL before); each job how often the backend counted its capacity
-- evicted, and the last time when and why (NULL while never evicted); each step the attempt number up to which its
-- failures no longer count against its retries (a manual retry; 0 before). Times as in V1.
ALTER TABLE run_attempts ADD COLUMN evictions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_attempts ADD COLUMN outcome TEXT;
CREATE TABLE run_events (
    run_id TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    at TEXT NOT NULL,
    step TEXT,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (run_id, sequence)
);
ALTER TABLE jobs ADD COLUMN evictions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN last_eviction_at TEXT;
ALTER TABLE jobs ADD COLUMN last_eviction_reason TEXT;
ALTER TABLE run_steps ADD COLUMN retry_base INTEGER NOT NULL DEFAULT 0;
