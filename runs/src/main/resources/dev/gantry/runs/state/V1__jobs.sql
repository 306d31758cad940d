-- Gantry's job records (what jobs/*.json held). Times are UTC ISO-8601 with nine fraction digits, so that text
-- order is time order; standard SQL that SQLite and PostgreSQL both take.
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    workload TEXT NOT NULL,
    spec_file TEXT,
    backend TEXT NOT NULL,
    backend_job_id TEXT,
    stage TEXT NOT NULL,
    state TEXT NOT NULL,
    exit_code INTEGER,
    message TEXT NOT NULL,
    placement TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    started_at TEXT,
    ended_at TEXT
);
CREATE INDEX jobs_by_creation ON jobs (created_at, id);
