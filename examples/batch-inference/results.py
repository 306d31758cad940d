"""Where the shards of one run write their predictions and the report reads them: RESULTS_DIR when set (on a cluster,
storage every node sees), else a directory of the run under the system's temporary directory. The jobs of one run
share the run's id as the first part of their GANTRY_JOB_ID (RUN.STEP.ATTEMPT)."""
import os
import tempfile


def directory():
    run = os.environ.get("GANTRY_JOB_ID", "local").split(".")[0]
    path = os.environ.get("RESULTS_DIR") or os.path.join(tempfile.gettempdir(), "gantry-batch-inference", run)
    os.makedirs(path, exist_ok=True)
    return path
