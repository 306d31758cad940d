-- Workflow runs: the run, where each of its steps stands, the jobs submitted for each step (attempts; their job ids
-- are the jobs table's, not a foreign key, so that either side may be written first), and the lease of the process
-- that drives it. Times as in V1 (UTC ISO-8601, nine fraction digits); BOOLEAN is PostgreSQL's and an integer 0/1
-- in SQLite; DOUBLE PRECISION is a real in both.
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    spec_file TEXT NOT NULL,
    spec_hash TEXT NOT NULL,
    git_commit TEXT,
    git_dirty BOOLEAN,
    catalog_source TEXT NOT NULL,
    catalog_date TEXT NOT NULL,
    gantry_version TEXT NOT NULL,
    backend TEXT NOT NULL,
    state TEXT NOT NULL,
    message TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT
);
-- Listing newest first (read backwards), and finding the run of a workflow and spec to resume.
CREATE INDEX runs_by_creation ON runs (created_at, id);
CREATE INDEX runs_by_spec ON runs (name, spec_hash, created_at);
CREATE TABLE run_steps (
    run_id TEXT NOT NULL,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    evictions INTEGER NOT NULL,
    next_attempt_at TEXT,
    reason TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (run_id, name)
);
CREATE TABLE run_attempts (
    run_id TEXT NOT NULL,
    step TEXT NOT NULL,
    number INTEGER NOT NULL,
    job_id TEXT NOT NULL,
    price_per_hour DOUBLE PRECISION,
    spot BOOLEAN NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run_id, step, number)
);
CREATE TABLE run_leases (
    run_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
