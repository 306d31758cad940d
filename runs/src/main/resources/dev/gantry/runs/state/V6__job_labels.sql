-- The labels of a job's workload as submitted (the spec's metadata.labels with the submit request's over them), as a
-- JSON object; NULL: no labels, as for every job before V6.
ALTER TABLE jobs ADD COLUMN labels TEXT;
