-- The region an attempt was planned in when a workflow step was moved away from one where Spot capacity evicted it
-- too often (spot.nextRegionAfterEvictions); NULL: the step's planned region, as for every attempt before V5.
ALTER TABLE run_attempts ADD COLUMN region TEXT;
