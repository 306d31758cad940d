-- Each job's history: its events numbered from 1 in the order they were stored (the writer holds the write lock,
-- so the next number is the job's last plus one).
CREATE TABLE job_events (
    job_id TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (job_id, sequence)
);
