#!/usr/bin/env bash
# End-to-end checks of the gantry command as a user runs it, from a checkout, with a private home and state
# directory. Each check prints PASS or FAIL; the script fails if any check fails.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work" /tmp/gantry-e2e-$$-*' EXIT
export HOME="$work/home" GANTRY_STATE_DIR="$work/state"
mkdir -p "$HOME"

out="$work/out" err="$work/err"

# run_gantry ARGS... : runs ./gantry, keeping stdout, stderr and the exit code
run_gantry() {
  ./gantry "$@" >"$out" 2>"$err"
  code=$?
}
# shellcheck source=lib/checks.sh
. "$root/scripts/lib/checks.sh"
json() { python3 -c "import json,sys; d=json.load(open('$out')); sys.exit(0 if ($1) else 1)"; }
no_trace() { ! grep -qE '^\s+at [a-z]|Exception' "$out" "$err"; }

run_gantry version
check "version prints the version" bash -c "[[ $code -eq 0 ]] && grep -q '^gantry ' '$out'"

# The installable archive that the build made (cli/target/gantry-VERSION.tar.gz): unpacked, linked onto PATH and run
# with an empty home, it must plan as ./gantry does; its own checks print their lines (and fail loudly when the
# archive is missing).
check "the installed gantry (scripts/e2e-install.sh)" scripts/e2e-install.sh

run_gantry backends --output json
check "backends --output json lists the four backends" json \
  "sorted(b['name'] for b in d) == ['aks','batch','cyclecloud','manual'] and all({'name','description','capabilities'} <= set(b) for b in d)"

run_gantry validate examples/quickstart.yaml
check "validate accepts the quickstart" bash -c "[[ $code -eq 0 ]]"

cat >"$work/bad.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: Bad_Name
spec:
  phase: trainig
  model: small
  resources:
    gpus: -1
  command: [python3, train.py]
YAML
run_gantry validate "$work/bad.yaml"
check "validate BAD.yaml exits 2" bash -c "[[ $code -eq 2 ]]"
check "validate prints FILE:LINE:COL: PATH: message lines" bash -c \
  "[[ \$(grep -cE '^.+bad\.yaml:[0-9]+:[0-9]+: [][A-Za-z0-9.]+: .+' '$err') -ge 3 ]] && grep -q 'resources.gpus' '$err'"
check "validate prints no stack trace" no_trace

run_gantry run examples/quickstart.yaml
check "run quickstart succeeds" bash -c "[[ $code -eq 0 ]]"
check "run streams the job's output" grep -q '^epoch 5/5' "$out"
check "run ends with a summary line" bash -c "tail -n 1 '$out' | grep -qE '^gantry: quickstart-.*: SUCCEEDED \(exit 0\)'"

run_gantry status --output json
check "status --output json shows the quickstart SUCCEEDED with exit 0" json \
  "any(j['workload']=='quickstart' and j['state']=='SUCCEEDED' and j['exitCode']==0 for j in d)"

cat >"$work/sleeper.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: sleeper
spec:
  phase: inference
  model: small
  command: [sh, -c, 'echo started; sleep 300']
YAML
run_gantry run "$work/sleeper.yaml" --detach
job=$(cat "$out")
check "run --detach prints the job id and returns" bash -c "[[ $code -eq 0 && '$job' == sleeper-* ]]"
sleep 1
run_gantry status "$job" --output json
check "a detached job is RUNNING from a later invocation" json "d['state']=='RUNNING'"
run_gantry logs "$job"
check "logs shows a detached job's output" grep -q '^started$' "$out"
run_gantry cancel "$job"
check "cancel reports CANCELLED" bash -c "[[ $code -eq 0 ]] && grep -q CANCELLED '$out'"
run_gantry status "$job" --output json
check "the cancelled job stays CANCELLED" json "d['state']=='CANCELLED'"
run_gantry history "$job" --output json
check "history lists the job's submit, its states and the cancel, in order, from the state database" json \
  "[e['kind'] for e in d][:2]==['submitting','submitted'] and [e['kind'] for e in d][-2:]==['cancelling','state'] and d[-1]['detail'].startswith('CANCELLED') and any(e['detail'].startswith('RUNNING') for e in d) and [e['sequence'] for e in d]==list(range(1,len(d)+1))"

# The state store on the PostgreSQL test server (scripts/test-postgres.sh): the same commands, a schema of this run's
# own, the password given as a reference to its file.
pg_env=/var/lib/gantry-test-postgres/postgres.env
if [[ -r $pg_env ]]; then
  pg_url=$(sed -n 's/^URL=//p' "$pg_env") pg_user=$(sed -n 's/^USER=//p' "$pg_env")
  pg_password_file=$(sed -n 's/^PASSWORD_FILE=//p' "$pg_env") pg_schema="e2e_$$"
  PGPASSWORD=$(cat "$pg_password_file") psql -X -q -h 127.0.0.1 -p "$(sed -n 's/^PORT=//p' "$pg_env")" \
    -U "$pg_user" -d "$(basename "$pg_url")" -c "CREATE SCHEMA $pg_schema" >/dev/null
  pg_run() { GANTRY_STATE_URL="$pg_url?currentSchema=$pg_schema" GANTRY_STATE_USER="$pg_user" \
    GANTRY_STATE_PASSWORD="file:$pg_password_file" run_gantry "$@"; }
  pg_run run examples/quickstart.yaml
  pg_job=$(sed -n 's/^gantry: \(quickstart-[^:]*\): SUCCEEDED.*/\1/p' "$out" | tail -n 1)
  check "run on a PostgreSQL state server succeeds" bash -c "[[ $code -eq 0 && -n '$pg_job' ]]"
  pg_run history "$pg_job" --output json
  check "history reads the job's events back from the server" json \
    "[e['kind'] for e in d][:2]==['submitting','submitted'] and d[-1]['detail'].startswith('SUCCEEDED')"
  run_gantry status "$pg_job"
  check "the job is on the server only, not in the local state.db" bash -c "[[ $code -eq 2 ]]"
  GANTRY_RUNS_POLL_INTERVAL=1s pg_run run examples/local-workflow.yaml --output json
  check "a workflow runs with its run recorded on the PostgreSQL state server" json \
    "d['state']=='SUCCEEDED' and all(s['state']=='SUCCEEDED' for s in d['steps'])"
  GANTRY_STATE_URL="$pg_url" GANTRY_STATE_PASSWORD="hunter2-plain" run_gantry status
  check "a password that is no secret reference exits 2, and is not echoed" bash -c \
    "[[ $code -eq 2 ]] && grep -q 'GANTRY_STATE_PASSWORD: must be a secret reference' '$err' && ! grep -q hunter2 '$out' '$err'"
else
  check "the PostgreSQL test server is up (scripts/test-postgres.sh up)" false
fi

cat >"$work/failing.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: failing
spec:
  phase: training
  model: small
  command: [sh, -c, 'echo about to fail >&2; exit 3']
YAML
run_gantry run "$work/failing.yaml"
check "a failing job makes run exit 1 and report exit 3" bash -c \
  "[[ $code -eq 1 ]] && grep -qE 'FAILED \(exit 3\)' '$out' && grep -q 'about to fail' '$err'"

# Workflows: every step in dependency order on this machine, then the run listed, explained and logged.
GANTRY_RUNS_POLL_INTERVAL=1s run_gantry run examples/local-workflow.yaml --output json
check "examples/local-workflow.yaml runs: 4 jobs, each SUCCEEDED once, the run SUCCEEDED" json \
  "d['state']=='SUCCEEDED' and len(d['steps'])==4 and all(s['state']=='SUCCEEDED' and s['attempts']==1 for s in d['steps'])"
flow_run=$(python3 -c "import json; print(json.load(open('$out'))['id'])" 2>/dev/null)
run_gantry list --all
check "list --all shows the run as SUCCEEDED" bash -c "grep -Eq '^$flow_run +local-pipeline +SUCCEEDED' '$out'"
run_gantry logs "$flow_run" train-0-01
check "logs RUN STEP prints that step's output" bash -c "[[ $code -eq 0 ]] && grep -qx 'training with learning rate 0.01' '$out'"
run_gantry history "$flow_run"
check "history RUN lists the run's events from started to ended" bash -c \
  "[[ $code -eq 0 ]] && grep -Eq '^1 +[^ ]+ +- +started' '$out' && tail -n 1 '$out' | grep -Eq 'ended +SUCCEEDED: 4 of 4 jobs succeeded'"

run_gantry run
check "a usage error exits 2 without a stack trace" bash -c "[[ $code -eq 2 ]] && ! grep -q Exception '$err'"

run_gantry status no-such-job
check "an unknown job exits 2 with a clear message" bash -c "[[ $code -eq 2 ]] && grep -q \"no job 'no-such-job'\" '$err'"

run_gantry --backend batch run examples/quickstart.yaml
check "a backend chosen without its settings exits 2 naming the setting it needs" bash -c \
  "[[ $code -eq 2 ]] && grep -q '^backends.batch.accounts: is required' '$err' && ! grep -q Exception '$err'"

run_gantry --backend manul run examples/quickstart.yaml
check "an unknown backend exits 2 and lists the installed ones" bash -c \
  "[[ $code -eq 2 ]] && grep -q \"installed backends: aks, batch, cyclecloud, manual; did you mean 'manual'?\" '$err'"

# --- the advisor ----------------------------------------------------------------------------------------------
fields="['alternatives','catalog','estimatedCost','gpu','hardware','image','memoryGib','nodes','orchestrator','pricePerHour','rdma','reasons','region','spot','vcpus','vmSize','workload','zones']"
run_gantry plan examples/llm-finetune.yaml --output json
check "plan: generative multi-node training takes an RDMA ND size" json \
  "d['vmSize'].startswith('Standard_ND') and d['rdma'] and d['hardware']=='GPU' and d['nodes']==2"
check "plan --output json has exactly the documented fields" json "sorted(d) == $fields"
run_gantry plan examples/llm-inference.yaml --output json
check "plan: generative inference takes an NC or ND size without InfiniBand" json \
  "d['vmSize'].startswith(('Standard_NC','Standard_ND')) and not d['rdma']"
run_gantry plan examples/vision-training.yaml --output json
check "plan: complex-model training takes an ND size, or NC over Ethernet as the fallback" json \
  "d['vmSize'].startswith('Standard_ND') or (d['vmSize'].startswith('Standard_NC') and any('fallback' in r['text'] for r in d['reasons']))"
run_gantry plan examples/tabular-small.yaml --output json
check "plan: a small model trains on a memory-optimized CPU size" json \
  "d['hardware']=='CPU' and d['gpu'] is None and d['vmSize'].split('_')[1][0] in 'EM'"

run_gantry plan examples/tabular-small.yaml --catalog core/src/test/resources/catalog/skypilot-azure-vms.csv --output json
check "plan --catalog reads a SkyPilot Azure CSV and says so" json \
  "d['catalog']['source'].startswith('SkyPilot Azure CSV') and d['vmSize'].startswith('Standard_E')"
printf 'not,a,catalog\n' >"$work/bad-catalog.csv"
run_gantry plan examples/tabular-small.yaml --catalog "$work/bad-catalog.csv"
check "plan --catalog with a bad file exits 1 naming the file and the expected header" bash -c \
  "[[ $code -eq 1 ]] && grep -q 'bad-catalog.csv:1: not a catalog file' '$err'"
run_gantry plan examples/tabular-small.yaml --region westus2 --spot never
check "plan --region and --spot override the spec" bash -c \
  "[[ $code -eq 0 ]] && grep -q 'in westus2, on-demand' '$out'"

cat >"$work/huge.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: huge
spec:
  phase: training
  model: generative
  resources: {gpus: 8, gpuMemoryGib: 500}
  command: [train]
YAML
run_gantry plan examples/llm-finetune.yaml "$work/huge.yaml" "$work/bad.yaml" examples/tabular-small.yaml --output json
check "plan of several specs: an array in order, failures as error objects, worst exit code" json \
  "[x.get('workload') for x in d][0]=='llama-finetune' and d[1]['error']['code']=='NO_FEASIBLE_VM' and d[2]['error']['code']=='SPEC_INVALID' and d[3]['workload']=='churn-xgboost' and $code==2"
run_gantry plan "$work/huge.yaml"
check "plan with no feasible VM exits 1 with NO_FEASIBLE_VM" bash -c "[[ $code -eq 1 ]] && grep -q 'gpuMemoryGib\|GPU memory' '$err'"

# --- host probes ----------------------------------------------------------------------------------------------
run_gantry doctor --output json
check "doctor probes this machine as host 'local'" json "d[0]['host']=='local' and int(d[0]['facts']['cpus'])>=1"
run_gantry doctor examples/llm-finetune.yaml
check "doctor against an 8-GPU plan on a machine without them exits 1 and says what is missing" bash -c \
  "[[ $code -eq 1 ]] && grep -qE '^gpu.count +MISSING' '$out'"

# --- the manual backend over SSH: the test hosts that scripts/test-all.sh starts -----------------------------
hosts_file="${GANTRY_TEST_HOSTS_DIR:-/var/lib/gantry-test-hosts}/hosts"
ssh_config="$work/ssh-gantry.yaml"
{
  echo "backend: manual"
  echo "backends:"
  echo "  manual:"
  echo "    transport: ssh"
  echo "    hosts:"
  # The test hosts share this machine's file system, so each gets its own work directory (see the manual
  # backend's docs on shared home directories).
  while IFS=$'\t' read -r name address port user identity fingerprint; do
    [[ $name == \#* || -z $name ]] && continue
    echo "      - {name: $name, address: $address, port: $port, user: $user, identityFile: $identity, hostKeyFingerprint: '$fingerprint', workDir: /tmp/gantry-e2e-$$-$name}"
  done <"$hosts_file"
} >"$ssh_config" 2>/dev/null
run_gantry --config "$ssh_config" doctor --output json
check "doctor over SSH reports every test host with its facts and checks" json \
  "sorted(h['host'] for h in d)==['gantry-h1','gantry-h2'] and all(int(h['facts']['cpus'])>=1 and h['checks'] for h in d)"
run_gantry --config "$ssh_config" doctor
check "doctor over SSH prints a table per host" bash -c \
  "grep -q '^host gantry-h1: ' '$out' && grep -q '^host gantry-h2: ' '$out' && grep -qE '^cpu.vcpus +OK' '$out'"
cat >"$work/two-nodes.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: two-nodes
spec:
  phase: training
  model: small
  resources: {nodes: 2, interconnect: ethernet}
  command: [sh, -c, 'echo "rank $NODE_RANK of $WORLD_SIZE, master $MASTER_ADDR:$MASTER_PORT"']
YAML
run_gantry --config "$ssh_config" run "$work/two-nodes.yaml"
check "a two-node run over SSH starts one rank per host with the rendezvous variables" bash -c \
  "[[ $code -eq 0 ]] && grep -q '^rank 0 of 2, master 10.200.0.1[12]:29500$' '$out' && grep -q '^rank 1 of 2, master' '$out'"

# The same two ranks in Podman containers on the two hosts (as root, whose Podman runs rootful): each container
# shares its host's network, so the rendezvous address is the host's.
podman_root=${GANTRY_PODMAN_ROOT:-/var/tmp/gantry-podman}
container_config="$work/ssh-podman.yaml"
sed -e "s/user: [a-z]*,/user: root,/" -e "s#workDir: /tmp/gantry-e2e-$$-#workDir: /tmp/gantry-e2e-$$-root-#" \
  "$ssh_config" >"$container_config"
cat >>"$container_config" <<YAML
    containerRuntime: podman
    containerRuntimeOptions: [--root, $podman_root/storage, --runroot, $podman_root/run, --storage-driver, vfs,
      --runtime, runc, --cgroup-manager, cgroupfs, --events-backend, file]
    containerUlimits: [nofile=1024:1024, nproc=4096:4096]
YAML
cat >"$work/two-containers.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: two-containers
spec:
  phase: training
  model: small
  resources: {nodes: 2, interconnect: ethernet}
  container: {image: localhost/gantry-test-busybox:latest}
  command: [sh, -c, 'echo "container rank $NODE_RANK of $WORLD_SIZE, master $MASTER_ADDR:$MASTER_PORT"; grep -c eth0 /proc/net/dev']
YAML
run_gantry --config "$container_config" run "$work/two-containers.yaml"
check "a two-node container run over SSH runs each rank in Podman on its host's network" bash -c \
  "[[ $code -eq 0 ]] && grep -q '^container rank 0 of 2, master 10.200.0.1[12]:29500$' '$out' \
    && grep -q '^container rank 1 of 2, master' '$out' && [[ \$(grep -cx 1 '$out') -eq 2 ]]"
run_gantry backends --output json
check "backends --output json says the manual backend runs multi-node jobs and containers" json \
  "[b['capabilities']['multiNode'] and b['capabilities']['containers'] for b in d if b['name']=='manual']==[True]"

# The same two-node workload file on the manual backend's SSH hosts and on the Slurm test cluster (backend cyclecloud).
run_gantry --config "$ssh_config" run examples/distributed-hello.yaml
check "examples/distributed-hello.yaml runs on the manual backend's two SSH hosts" bash -c \
  "[[ $code -eq 0 ]] && grep -q '^rank 0 received: hello from rank 1$' '$out'"

# --- the cyclecloud backend: the Slurm test cluster that scripts/test-all.sh starts ----------------------------
cluster_env="${GANTRY_TEST_CLUSTER_DIR:-/var/lib/gantry-test-cluster}/cluster.env"
# shellcheck disable=SC1090
. "$cluster_env"
cc_config="$work/cyclecloud.yaml"
cat >"$cc_config" <<YAML
backend: cyclecloud
backends:
  cyclecloud:
    address: $LOGIN_ADDRESS
    port: $LOGIN_PORT
    user: $LOGIN_USER
    identityFile: $LOGIN_IDENTITY
    hostKeyFingerprint: '$LOGIN_FINGERPRINT'
    workDir: $SHARED_DIR/e2e-$$
    jobCompLog: $SLURM_JOBCOMP
YAML
run_gantry --config "$cc_config" run examples/distributed-hello.yaml
check "the same file runs on Slurm: one rank per compute node, rank 1 reaches rank 0 at the first node's address" \
  bash -c "[[ $code -eq 0 ]] && grep -q '^rank 0 of 2 on gantry-c1, master 10.200.0.101:29500$' '$out' \
    && grep -q '^rank 1 of 2 on gantry-c2, master 10.200.0.101:29500$' '$out' \
    && grep -q '^rank 0 received: hello from rank 1$' '$out' && grep -q ': SUCCEEDED (exit 0)' '$out'"
cat >"$work/slurm-flow.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workflow
metadata: {name: slurm-flow}
spec:
  steps:
    - name: first
      workload: {phase: training, model: small, command: [sh, -c, "sleep 5; echo first on $(hostname)"]}
    - name: second
      dependsOn: [first]
      workload: {phase: training, model: small, command: [sh, -c, "echo second"]}
    - name: third
      dependsOn: [second]
      workload: {phase: training, model: small, command: [sh, -c, "echo third"]}
YAML
GANTRY_RUNS_POLL_INTERVAL=1s run_gantry --config "$cc_config" run "$work/slurm-flow.yaml" --output json
check "a workflow runs on Slurm, each step once, the run SUCCEEDED" json \
  "d['state']=='SUCCEEDED' and all(s['state']=='SUCCEEDED' and s['attempts']==1 for s in d['steps'])"
slurm_run=$(python3 -c "import json; print(json.load(open('$out'))['id'])" 2>/dev/null)
run_gantry --config "$cc_config" history "$slurm_run"
check "on Slurm a dependent step is submitted behind its running dependency (sbatch --dependency), not after it" \
  bash -c "[[ $code -eq 0 ]] && grep -E ' second +submitting ' '$out' | grep -q 'started by the orchestrator once 1 job'"
cat >"$work/ticker.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: ticker
spec:
  phase: training
  model: small
  command: [sh, -c, 'i=0; while [ $i -lt 600 ]; do echo "tick $i"; i=$((i+1)); sleep 0.2; done']
YAML
# detached_lifecycle CONFIG SCHEDULER: run --detach, status, logs --follow, cancel and status of the ticker workload
# on the cluster CONFIG names; the job's id is left in detached_job.
detached_lifecycle() {
  local config=$1 scheduler=$2 job
  run_gantry --config "$config" run "$work/ticker.yaml" --detach
  job=$(head -n 1 "$out")
  check "run --detach submits to $scheduler and prints the job id" bash -c "[[ $code -eq 0 && '$job' == ticker-* ]]"
  sleep 3
  run_gantry --config "$config" status "$job" --output json
  check "status reports the $scheduler job RUNNING" json "d['state']=='RUNNING'"
  timeout 5 ./gantry --config "$config" logs --follow "$job" >"$out" 2>"$err"
  check "logs --follow streams the ticks from $scheduler while the job runs" bash -c "grep -q '^tick 1$' '$out'"
  run_gantry --config "$config" cancel "$job"
  check "cancel stops the $scheduler job" bash -c "[[ $code -eq 0 ]]"
  run_gantry --config "$config" status "$job" --output json
  check "status then says CANCELLED" json "d['state']=='CANCELLED'"
  detached_job=$job
}
detached_lifecycle "$cc_config" Slurm
run_gantry --config "$cc_config" doctor --output json
check "doctor probes both compute nodes through Slurm" json \
  "sorted(h['host'] for h in d)==['gantry-c1','gantry-c2'] and all(h['facts']['partition']=='hpc' for h in d)"
cat >"$work/bad-cc.yaml" <<YAML
backend: cyclecloud
backends:
  cyclecloud:
    address: $LOGIN_ADDRESS
    prot: 22
    user: $LOGIN_USER
    identityFile: $LOGIN_IDENTITY
    workDir: $SHARED_DIR/e2e-$$
YAML
run_gantry --config "$work/bad-cc.yaml" run examples/distributed-hello.yaml
check "a misspelt cyclecloud key exits 2 with the key it most likely meant, and no trace" bash -c \
  "[[ $code -eq 2 ]] && grep -q 'backends.cyclecloud.prot: unknown setting; did you mean .port.' '$err' \
    && ! grep -q 'Exception' '$err'"
sed -e 's/^    prot: 22$/    port: 70000/' -e "s#workDir: .*#workDir: relative/jobs#" "$work/bad-cc.yaml" \
  >"$work/bad-cc-values.yaml"
run_gantry --config "$work/bad-cc-values.yaml" run examples/distributed-hello.yaml
check "bad cyclecloud values exit 2 naming each key at once, and nothing is submitted" bash -c \
  "[[ $code -eq 2 ]] && grep -q 'backends.cyclecloud.port: must be a TCP port from 1 to 65535' '$err' \
    && grep -q 'backends.cyclecloud.workDir: must be an absolute path' '$err' && ! grep -q 'submitted' '$err'"

# --- the cyclecloud backend on the test cluster's Grid Engine (the same login node, scheduler: gridengine) -------
ge_config="$work/gridengine.yaml"
cat >"$ge_config" <<YAML
backend: cyclecloud
backends:
  cyclecloud:
    scheduler: gridengine
    address: $LOGIN_ADDRESS
    port: $LOGIN_PORT
    user: $LOGIN_USER
    identityFile: $LOGIN_IDENTITY
    hostKeyFingerprint: '$LOGIN_FINGERPRINT'
    workDir: $SHARED_DIR/e2e-ge-$$
    parallelEnvironment: smp
    defaultPartition: $GE_QUEUE
YAML
cat >"$work/ge-hello.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workload
metadata:
  name: ge-hello
spec:
  phase: training
  model: small
  resources: {vcpus: 2}
  command: [sh, -c, 'echo "hello from $(hostname), rank $RANK of $GANTRY_NUM_NODES, $NSLOTS slots"']
YAML
run_gantry --config "$ge_config" run "$work/ge-hello.yaml"
check "a workload runs on Grid Engine: its output streams back and it SUCCEEDED, on 2 slots of the smp PE" \
  bash -c "[[ $code -eq 0 ]] && grep -q '^hello from $GE_HOST, rank 0 of 1, 2 slots$' '$out' \
    && grep -q ': SUCCEEDED (exit 0)' '$out'"
detached_lifecycle "$ge_config" "Grid Engine"
run_gantry --config "$ge_config" doctor --output json
check "doctor probes every execution host through Grid Engine: this host and both compute nodes" json \
  "sorted(h['host'] for h in d)==sorted(['$GE_HOST'] + '$GE_NODES'.split()) and int(d[0]['facts']['cpus'])>=1"
run_gantry --config "$ge_config" run examples/distributed-hello.yaml
check "a two-node workload without multiNodeParallelEnvironment is refused (PLAN_REJECTED, exit 1) with the fix, and nothing is submitted" \
  bash -c "[[ $code -eq 1 ]] && grep -q 'backends.cyclecloud.multiNodeParallelEnvironment' '$err' \
    && grep -q 'allocation_rule 1, control_slaves TRUE' '$err' && ! grep -q 'submitted' '$err' && ! grep -q 'Exception' '$err'"
ge_nodes_config="$work/gridengine-nodes.yaml"
sed -e "s/^    defaultPartition: .*/    defaultPartition: $GE_NODE_QUEUE\n    multiNodeParallelEnvironment: $GE_NODE_PE/" \
  "$ge_config" >"$ge_nodes_config"
run_gantry --config "$ge_nodes_config" run examples/distributed-hello.yaml
check "the same file runs on Grid Engine: one rank per compute node (qrsh -inherit), rank 1 reaches rank 0 by its host name" \
  bash -c "[[ $code -eq 0 ]] && grep -Eq '^rank 0 of 2 on gantry-c[12], master gantry-c[12]:29500$' '$out' \
    && grep -Eq '^rank 1 of 2 on gantry-c[12], master gantry-c[12]:29500$' '$out' \
    && grep -q '^rank 0 received: hello from rank 1$' '$out' && grep -q ': SUCCEEDED (exit 0)' '$out'"
# Twelve steps, four at a time, in the compute nodes' queue: jobs on both nodes at once, ending at different times.
# While the nodes' execds (one kernel) shared the global gid_range, the first job to end on one node killed those
# holding its group id on the other (exit 137), and this workflow failed 4 times of 4 (see docs/backends/cyclecloud.md).
{
  cat <<'YAML'
apiVersion: gantry.dev/v1
kind: Workflow
metadata: {name: ge-parallel}
spec:
  parallelism: 4
  steps:
    - name: prepare
      workload: {phase: training, model: small, command: [sh, -c, 'echo "prepare on $(hostname)"']}
YAML
  for i in $(seq 1 10); do
    cat <<YAML
    - name: shard-$i
      dependsOn: [prepare]
      workload: {phase: training, model: small, command: [sh, -c, 'sleep $((i % 3 + 1)); echo "shard-$i on \$(hostname)"']}
YAML
  done
  cat <<YAML
    - name: report
      dependsOn: [$(seq -s ', ' -f 'shard-%g' 1 10)]
      workload: {phase: training, model: small, command: [sh, -c, 'echo "report on \$(hostname)"']}
YAML
} >"$work/ge-parallel.yaml"
GANTRY_RUNS_POLL_INTERVAL=1s run_gantry --config "$ge_nodes_config" run "$work/ge-parallel.yaml" --output json
check "a workflow of 12 steps, 4 at a time, runs on Grid Engine's compute nodes: each step once, the run SUCCEEDED" json \
  "d['state']=='SUCCEEDED' and len(d['steps'])==12 and all(s['state']=='SUCCEEDED' and s['attempts']==1 for s in d['steps'])"
ge_flow_run=$(python3 -c "import json; print(json.load(open('$out'))['id'])" 2>/dev/null)
for i in $(seq 1 10); do ./gantry --config "$ge_nodes_config" logs "$ge_flow_run" "shard-$i" 2>"$err"; done >"$work/shards"
mv "$work/shards" "$out"
check "its shards ran on both compute nodes" bash -c "grep -q ' on gantry-c1$' '$out' && grep -q ' on gantry-c2$' '$out'"

# --- the aks backend: the Kubernetes test cluster (KubeTestCluster, started by scripts/test-kube.sh cluster) -------
# The advisor plans distributed-hello as it does for every backend; the test cluster's two nodes are of the planned
# size, so the backend places the ranks by node.kubernetes.io/instance-type as on AKS. Pods of images other than
# the kit's busybox run as processes in the nodes' network namespaces (gantry-k1, gantry-k2).
aks_started=$SECONDS
run_gantry plan examples/distributed-hello.yaml --output json
aks_node_type=$(python3 -c "import json; d=json.load(open('$out'))
print(f\"{d['vmSize']},cpu={d['vcpus']},memory={round(d['memoryGib'] * 1024)}Mi\" + (',spot' if d['spot'] else ''))")
trap 'scripts/test-kube.sh cluster-down >/dev/null 2>&1; rm -rf "$work" /tmp/gantry-e2e-$$-*' EXIT
scripts/test-kube.sh cluster --node-type "$aks_node_type" >"$out" 2>"$err"
code=$?
check "the Kubernetes test cluster starts with two nodes of the planned size (${aks_node_type%%,*})" bash -c \
  "[[ $code -eq 0 ]] && grep -qE '^ready https://127.0.0.1:[0-9]+ namespace [a-z0-9-]+ nodes [^,]+,[^,]+$' '$out'"
if [[ $code -eq 0 ]]; then
  # shellcheck disable=SC1091
  . "${GANTRY_TEST_KUBE_DIR:-/var/lib/gantry-test-kube}/cluster/cluster.env"
  # kube_api PATH: GET PATH from the test cluster's API server as its admin (no kubectl needed), the answer in $out
  kube_api() {
    sed -n 's/^ *certificate-authority-data: //p' "$KUBE_ADMIN_KUBECONFIG" | base64 -d >"$work/kube-ca.pem"
    sed -n 's/^ *token: /Authorization: Bearer /p' "$KUBE_ADMIN_KUBECONFIG" >"$work/kube-auth"
    curl -sS --fail --cacert "$work/kube-ca.pem" -H "@$work/kube-auth" "$KUBE_SERVER$1" >"$out" 2>"$err"
    code=$?
  }
  aks_config="$work/aks.yaml"
  cat >"$aks_config" <<YAML
backend: aks
backends:
  aks:
    kubeconfig: $KUBE_KUBECONFIG
    namespace: $KUBE_NAMESPACE
    defaultImage: docker.io/library/python:3.12-slim
YAML
  run_gantry --config "$aks_config" run examples/distributed-hello.yaml
  check "the same file runs on Kubernetes: one pod per rank, rank 1 reaches rank 0 at its pod's DNS name" bash -c \
    "[[ $code -eq 0 ]] && grep -Eq '^rank 0 of 2 on (distributed-hello-[a-z0-9-]+)-0, master \1-0\.\1:29500$' '$out' \
      && grep -Eq '^rank 1 of 2 on (distributed-hello-[a-z0-9-]+)-1, master \1-0\.\1:29500$' '$out' \
      && grep -q '^rank 0 received: hello from rank 1$' '$out' && grep -q ': SUCCEEDED (exit 0) .* on aks$' '$out'"
  aks_job=$(sed -n 's/^gantry: \(distributed-hello-[^:]*\): SUCCEEDED.*/\1/p' "$out" | tail -n 1)
  run_gantry --config "$aks_config" status "$aks_job" --output json
  check "status reports the Kubernetes job SUCCEEDED with exit 0 on 2 nodes of the planned size" json \
    "d['backend']=='aks' and d['state']=='SUCCEEDED' and d['exitCode']==0 and d['placement'].startswith('2 x ${aks_node_type%%,*} ')"
  run_gantry --config "$aks_config" logs "$aks_job"
  check "logs of the ended Kubernetes job prints both ranks' output" bash -c \
    "[[ $code -eq 0 ]] && grep -q '^rank 0 received: hello from rank 1$' '$out' && grep -q '^rank 1 of 2 on ' '$out'"
  detached_lifecycle "$aks_config" Kubernetes
  kube_api "/api/v1/namespaces/$KUBE_NAMESPACE/pods?labelSelector=gantry.dev%2Fjob%3D$detached_job"
  check "the cancelled Kubernetes job's pods are gone" json "$code==0 and d['items']==[]"

  kube_api "/apis/batch/v1/namespaces/$KUBE_NAMESPACE/jobs"
  aks_jobs_before=$(python3 -c "import json; print(len(json.load(open('$out'))['items']))")
  cat >"$work/bad-aks.yaml" <<YAML
backend: aks
backends:
  aks:
    kubeconfig: $KUBE_KUBECONFIG
    context: gantry-test-gantr
    namespace: ML_Jobs
    defaultImage: docker.io/library/python:3.12-slim
    nodePools: [${aks_node_type%%,*}]
YAML
  run_gantry --config "$work/bad-aks.yaml" run examples/distributed-hello.yaml
  check "bad aks settings exit 2 naming each key at once with FILE:LINE:COL, the fix, and no trace" bash -c \
    "[[ $code -eq 2 ]] && grep -Eq 'bad-aks\.yaml:5:[0-9]+: backends\.aks\.context: .gantry-test-gantr. is not a context of .*; it has gantry-test-gantry' '$err' \
      && grep -Eq 'bad-aks\.yaml:6:[0-9]+: backends\.aks\.namespace: .ML_Jobs. is not a Kubernetes namespace name: .*e\.g\. ml-jobs' '$err' \
      && grep -Eq \"bad-aks\.yaml:8:[0-9]+: backends\.aks\.nodePools: .* has no '='; write VMSIZE=POOL\" '$err' \
      && ! grep -q 'submitted' '$err' && ! grep -q 'Exception' '$out' '$err'"
  kube_api "/apis/batch/v1/namespaces/$KUBE_NAMESPACE/jobs"
  check "bad aks settings submit nothing: the cluster has no new Job" json "$code==0 and len(d['items'])==$aks_jobs_before"
  scripts/test-kube.sh cluster-down
  check "the Kubernetes test cluster stops (scripts/test-kube.sh cluster-down)" bash -c \
    "! [[ -e '${GANTRY_TEST_KUBE_DIR:-/var/lib/gantry-test-kube}/cluster/pid' ]]"
fi
echo "e2e: the aks section took $((SECONDS - aks_started))s"

# --- the batch backend: the Azure Batch fake as a process (scripts/test-batch.sh up) ---------------------------------
# A Batch-managed account over plain HTTP on loopback with a shared key, named after the region the advisor plans in
# (a loopback URL names no account); its nodes run tasks in the namespaces gantry-b1..b4 on this machine, so a spec's
# workingDir in this checkout is there. Shared-key accounts are Batch-managed and have no Spot (validate refuses Spot
# plans there, with the fix), so the workloads here say spot: never; the Spot run, evicted through the control
# endpoint, runs after them on the fake restarted as a user-subscription account with Entra ID sign-in (below). The
# fake's supported images also list the one the advisor plans CPU workloads on, so that validate accepts it. A fake
# kept from an earlier run is replaced: this section needs its own flags and state.
batch_started=$SECONDS
batch_state=${GANTRY_TEST_BATCH_DIR:-/var/lib/gantry-test-batch}
batch_image='batch.node.ubuntu 22.04=microsoft-dsvm:ubuntu-2204:2204-gen2,DockerCompatible'
trap 'scripts/test-batch.sh down >/dev/null 2>&1; scripts/test-kube.sh cluster-down >/dev/null 2>&1; rm -rf "$work" /tmp/gantry-e2e-$$-*' EXIT
scripts/test-batch.sh down >/dev/null 2>&1
scripts/test-batch.sh up --control --account eastus --node-retention PT5S \
  --supported-image "$batch_image" >"$out" 2>"$err"
code=$?
check "the Batch fake starts on loopback with its control endpoint (scripts/test-batch.sh up --control)" bash -c \
  "[[ $code -eq 0 ]] && grep -qE '^ready http://127.0.0.1:[0-9]+ account eastus control http://127.0.0.1:[0-9]+$' '$out'"
if [[ $code -eq 0 ]]; then
  # shellcheck disable=SC1091
  . "$batch_state/batch.env"
  batch_config="$work/batch.yaml"
  # batch_status_until ID CONDITION: gantry status ID --output json once a second, for at most 30 s, until the
  # Python CONDITION holds of its answer (d); the last answer stays in $out for the check that follows.
  batch_status_until() {
    local _
    for _ in $(seq 1 30); do
      run_gantry --config "$batch_config" status "$1" --output json
      json "$2" && return 0
      sleep 1
    done
    return 1
  }
  cat >"$batch_config" <<YAML
backend: batch
defaults: {regions: [eastus]}
backends:
  batch:
    accounts:
      - {url: "$BATCH_URL", region: eastus, auth: sharedKey, key: "file:$BATCH_KEY_FILE"}
    idlePoolTimeout: 5s
YAML
  run_gantry --config "$batch_config" backends --output json
  check "backends --output json shows batch available and configured" json \
    "[(b['available'], b['configured']) for b in d if b['name']=='batch']==[(True, True)]"

  sed -e 's/^  spot: allowed$/  spot: never/' -e "s#^  command: #  workingDir: $root\n  command: #" \
    examples/quickstart.yaml >"$work/batch-quickstart.yaml"
  run_gantry --config "$batch_config" run "$work/batch-quickstart.yaml"
  check "the quickstart runs on batch: its output streams back and it SUCCEEDED" bash -c \
    "[[ $code -eq 0 ]] && grep -q '^epoch 5/5' '$out' && tail -n 1 '$out' | grep -qE '^gantry: quickstart-.*: SUCCEEDED \(exit 0\).* on batch$'"

  sed 's/^  model: small$/  model: small\n  spot: never/' "$work/sleeper.yaml" >"$work/batch-sleeper.yaml"
  run_gantry --config "$batch_config" run "$work/batch-sleeper.yaml" --detach
  batch_job=$(head -n 1 "$out")
  check "run --detach submits to Batch and prints the job id" bash -c "[[ $code -eq 0 && '$batch_job' == sleeper-* ]]"
  batch_status_until "$batch_job" "d['state']=='RUNNING'"
  check "status reports the Batch task RUNNING on a node" json \
    "d['state']=='RUNNING' and d['backend']=='batch' and d['message'].startswith('running on node ')"
  run_gantry --config "$batch_config" logs "$batch_job"
  check "logs reads the Batch task's stdout" bash -c "[[ $code -eq 0 ]] && grep -qx started '$out'"
  run_gantry --config "$batch_config" cancel "$batch_job"
  check "cancel terminates the Batch task and reports CANCELLED" bash -c "[[ $code -eq 0 ]] && grep -q CANCELLED '$out'"
  run_gantry --config "$batch_config" status "$batch_job" --output json
  check "the cancelled Batch task stays CANCELLED" json "d['state']=='CANCELLED'"

  sed -e 's/^metadata: {name: slurm-flow}$/metadata: {name: batch-flow}/' \
    -e 's/workload: {phase: training, model: small, /workload: {phase: training, model: small, spot: never, /' \
    "$work/slurm-flow.yaml" >"$work/batch-flow.yaml"
  GANTRY_RUNS_POLL_INTERVAL=1s run_gantry --config "$batch_config" run "$work/batch-flow.yaml" --output json
  check "a workflow of dependent steps runs on batch, each step once, in order, the run SUCCEEDED" json \
    "d['state']=='SUCCEEDED' and [(s['name'], s['state'], s['attempts']) for s in d['steps']]==[('first','SUCCEEDED',1), ('second','SUCCEEDED',1), ('third','SUCCEEDED',1)]"

  cat >"$work/batch-spot.yaml" <<'YAML'
apiVersion: gantry.dev/v1
kind: Workflow
metadata: {name: batch-spot}
spec:
  steps:
    - name: long
      workload:
        phase: training
        model: small
        spot: allowed
        checkpoint: {path: /tmp/gantry-e2e-spot-checkpoints, every: 5m}
        command: [sh, -c, "echo up; sleep 300"]
YAML
  run_gantry --config "$batch_config" run "$work/batch-spot.yaml" --detach
  check "a Spot run on the shared-key (Batch-managed) account is refused before anything is made, with the fix" bash -c \
    "[[ $code -eq 1 ]] && grep -q \"step 'long': spot: the plan is on Spot but account .* signs in with a shared key\" '$err' \
      && grep -q 'nothing was submitted' '$err' && grep -q 'or plan without Spot (spot: never)' '$err' && ! grep -q Exception '$err'"

  cat >"$work/bad-batch.yaml" <<YAML
backend: batch
backends:
  batch:
    accounts:
      - {url: "http://batch.example.com", region: eastus, auth: sharedkey, key: "file:$BATCH_KEY_FILE"}
    poolPrefx: gantry
    idlePoolTimeout: soon
YAML
  run_gantry --config "$work/bad-batch.yaml" run "$work/batch-quickstart.yaml"
  check "bad batch settings exit 2 naming each key at once with FILE:LINE:COL and the fix, and no trace" bash -c \
    "[[ $code -eq 2 ]] && grep -q \"bad-batch.yaml:6:[0-9]*: backends.batch.poolPrefx: unknown setting; did you mean 'poolPrefix'?\" '$err' \
      && grep -q 'bad-batch.yaml:5:[0-9]*: backends.batch.accounts\[0\].url: .http://batch.example.com. is plain http .*use https://batch.example.com' '$err' \
      && grep -q 'bad-batch.yaml:5:[0-9]*: backends.batch.accounts\[0\].auth: must be one of sharedKey, entra, got .sharedkey.' '$err' \
      && grep -q 'bad-batch.yaml:7:[0-9]*: backends.batch.idlePoolTimeout: must be a duration' '$err' \
      && ! grep -q 'submitted' '$err' && ! grep -q Exception '$out' '$err'"

  # Every pool above has had no active or running task for more than idlePoolTimeout (5s) by now, or soon will.
  sleep 6
  run_gantry --config "$batch_config" gc --dry-run --output json
  batch_idle=$(python3 -c "import json; print(len(json.load(open('$out'))['resources']))" 2>/dev/null)
  check "gc --dry-run lists the idle Gantry pools and releases nothing" json \
    "d['dryRun'] and d['resources'] and all(r['kind']=='pool' and r['id'].startswith('gantry-') and r['result']=='dry-run' for r in d['resources'])"
  run_gantry --config "$batch_config" gc --output json
  check "gc releases each idle pool (with its job)" json \
    "len(d['resources'])==${batch_idle:-0} and all(r['result']=='released' for r in d['resources'])"
  run_gantry --config "$batch_config" gc --dry-run --output json
  check "after gc no idle Gantry pool is left" json "d['resources']==[]"
  curl -sS --fail "$BATCH_CONTROL_URL/counts" >"$out" 2>"$err"
  check "the fake counted the pools Gantry deleted as it made them" json \
    "d.get('Pool_Delete',0)==${batch_idle:-0} and d.get('Job_Delete',0)==${batch_idle:-0}"
  scripts/test-batch.sh down
  check "the Batch fake stops (scripts/test-batch.sh down)" bash -c "! [[ -e '$batch_state/pid' ]]"
fi

# --- Spot on batch: the fake as a user-subscription account that takes Microsoft Entra ID tokens only ---------------
# As a platform team's CI signs in: the Batch data plane and a Resource Manager over HTTPS with the fake's own
# certificate (trusted through the JVM's trust store, GANTRY_JAVA_OPTS), Resource Manager's cloud metadata document
# naming the fake's endpoints (ARM_CLOUD_METADATA_URL, as for an air-gapped cloud), and a managed identity's token
# endpoint (IDENTITY_ENDPOINT, IDENTITY_HEADER, as on App Service) that DefaultAzureCredential finds. Resource Manager
# says the account allocates in the user's subscription, so Spot is allowed; the control endpoint preempts the Spot
# node running the step, as Azure evicts a Spot VM, and Batch requeues the task.
scripts/test-batch.sh up --entra --control --account eastus --node-retention PT5S --supported-image "$batch_image" \
  --vm-size "Standard_E2as_v5=standardEASv5Family:2" >"$out" 2>"$err"
code=$?
check "the Batch fake starts as an Entra ID account (scripts/test-batch.sh up --entra)" bash -c \
  "[[ $code -eq 0 ]] && grep -qE '^ready https://127.0.0.1:[0-9]+ account eastus control http://127.0.0.1:[0-9]+ auth entra$' '$out'"
if [[ $code -eq 0 ]]; then
  # shellcheck disable=SC1091
  . "$batch_state/batch.env"
  batch_config="$work/batch-entra.yaml"
  cat >"$batch_config" <<YAML
backend: batch
defaults: {regions: [eastus]}
backends:
  batch:
    accounts:
      - {url: "$BATCH_URL", region: eastus, auth: entra, resourceId: "$BATCH_RESOURCE_ID"}
    idlePoolTimeout: 5s
YAML
  # Exported for this part only: every gantry call and a detached run's driver sign in this way.
  export ARM_CLOUD_METADATA_URL="$BATCH_ARM_METADATA_URL" IDENTITY_ENDPOINT="$BATCH_IDENTITY_ENDPOINT" \
    IDENTITY_HEADER="$BATCH_IDENTITY_HEADER" GANTRY_JAVA_OPTS="-Djavax.net.ssl.trustStore=$BATCH_TRUSTSTORE \
    -Djavax.net.ssl.trustStorePassword=$BATCH_TRUSTSTORE_PASSWORD -Djavax.net.ssl.trustStoreType=PKCS12"
  GANTRY_RUNS_POLL_INTERVAL=1s run_gantry --config "$batch_config" run "$work/batch-spot.yaml" --detach
  evicted_run=$(head -n 1 "$out")
  check "a Spot run is accepted on the Entra ID account and detached" bash -c \
    "[[ $code -eq 0 && '$evicted_run' == batch-spot-* ]]"
  batch_status_until "$evicted_run" "d['steps'][0]['state']=='RUNNING'"
  check "the Spot step runs on batch, signed in with the managed identity's token" json \
    "d['steps'][0]['state']=='RUNNING'"
  evicted_task=$(python3 -c "import json; print(json.load(open('$out'))['steps'][0]['attemptList'][-1]['backendJobId'])" 2>/dev/null)
  IFS=. read -r _ evicted_pool_job evicted_task_id <<<"$evicted_task"
  curl -sS --fail -X POST "$BATCH_CONTROL_URL/preempt?job=$evicted_pool_job&task=$evicted_task_id" >"$out" 2>"$err"
  check "the control endpoint preempts the Spot node running the step" json "d['preempted'].startswith('tvm')"
  batch_status_until "$evicted_run" "d['steps'][0]['evictions']>=1"
  check "gantry status shows the step's eviction, the step requeued by Batch in the same attempt, not failed" json \
    "d['steps'][0]['evictions']==1 and d['steps'][0]['state'] in ('SUBMITTED','PENDING','RUNNING') and d['steps'][0]['attempts']==1"
  run_gantry --config "$batch_config" history "$evicted_run"
  check "history records the eviction as an event, naming the preempted node" bash -c \
    "[[ $code -eq 0 ]] && grep -Eq ' long +evicted +Batch node tvm[^ ]* preempted .* 1 eviction' '$out'"
  run_gantry --config "$batch_config" cancel "$evicted_run"
  batch_status_until "$evicted_run" "d['state']=='CANCELLED'"
  check "the evicted run is cancelled" json "d['state']=='CANCELLED'"
  unset ARM_CLOUD_METADATA_URL IDENTITY_ENDPOINT IDENTITY_HEADER GANTRY_JAVA_OPTS
  scripts/test-batch.sh down
fi
echo "e2e: the batch section took $((SECONDS - batch_started))s"

echo
echo "e2e: $passed passed, $failed failed"
((failed == 0))
