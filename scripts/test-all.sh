#!/usr/bin/env bash
# The test command: installs what the tests need (as root, with apt-get, only where something is missing), starts
# what they need, runs the whole build with every test and the cluster benchmarks, then drives the gantry command end
# to end.
# Usage: scripts/test-all.sh [extra Maven arguments]
# GANTRY_BUILD_THREADS (default 4) is how many modules Maven builds at once.
# GANTRY_SKIP_BENCHMARKS=1 skips the benchmarks (for a partial run, such as -pl core); without it, a run in which the
# benchmarks module or the installable archive was not built fails rather than report benchmarks it did not run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '\n==> %s\n' "$*"; }

# --- what this run is asked to do: refused before anything is installed or started ----------------------------
# The test command checks golden files and never rewrites them: a rewrite is a developer's step, reviewed in the diff
# (docs/testing.md). The property would reach the tests from any of these.
golden_property=gantry.golden.update
for source in "arguments:$*" "MAVEN_OPTS:${MAVEN_OPTS:-}" "JAVA_TOOL_OPTIONS:${JAVA_TOOL_OPTIONS:-}" \
    "MAVEN_ARGS:${MAVEN_ARGS:-}"; do
  if [[ "${source#*:}" == *"$golden_property"* ]]; then
    echo "test-all: $golden_property is set in ${source%%:*} (${source#*:}); the test command checks golden files" \
      "and never rewrites them: remove it, and rewrite golden files with ./mvnw as docs/testing.md shows" >&2
    exit 2
  fi
done
case "${GANTRY_SKIP_BENCHMARKS:-0}" in
  0) skip_benchmarks=false ;;
  1) skip_benchmarks=true ;;
  *) echo "test-all: GANTRY_SKIP_BENCHMARKS is '${GANTRY_SKIP_BENCHMARKS}'; allowed: 1 (skip the benchmarks) or 0" \
       "(run them, the default)" >&2
     exit 2 ;;
esac

build_threads=${GANTRY_BUILD_THREADS:-4}
if ! [[ "$build_threads" =~ ^[1-9][0-9]?$ ]]; then
  echo "test-all: GANTRY_BUILD_THREADS is '${build_threads}'; allowed: a whole number from 1 to 99 (how many modules" \
    "Maven builds at once; 1 builds one at a time), default 4" >&2
  exit 2
fi

# --- prerequisites -------------------------------------------------------------------------------------------
# command -> Debian package that provides it
declare -A needed=(
  [javac]=openjdk-17-jdk-headless
  [python3]=python3
  [setsid]=util-linux
  [curl]=curl
  [unzip]=unzip
  [sshd]=openssh-server
  [ssh]=openssh-client
  [ip]=iproute2
  [pkill]=procps
  [slurmctld]=slurmctld
  [slurmd]=slurmd
  [sbatch]=slurm-client
  [munged]=munge
  [sge_qmaster]=gridengine-master
  [sge_execd]=gridengine-exec
  [qsub]=gridengine-client
  [zsh]=zsh
)
missing=()
for cmd in "${!needed[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || [[ -x "/usr/sbin/$cmd" ]] || missing+=("${needed[$cmd]}")
done
# The PostgreSQL server's programs are not on PATH: Debian keeps them under /usr/lib/postgresql/VERSION/bin.
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
# PyTorch for the worked checkpoint example of docs/spot.md, which a test runs on the CPU: Debian's package, for
# Debian's interpreter (a python3 earlier on PATH, such as a pyenv one, does not see it).
/usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || missing+=(python3-torch)
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "missing packages: ${missing[*]}; run as root or install them first" >&2
    exit 1
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${missing[*]} " == *" gridengine-"* ]]; then
    # Grid Engine's packages set up their cell (qmaster and execd on this host) only when debconf is told to.
    ge_master=$(hostname -s)
    for pkg in gridengine-common gridengine-master gridengine-exec gridengine-client; do
      echo "$pkg shared/gridengineconfig boolean true"
      echo "$pkg shared/gridenginecell string default"
      echo "$pkg shared/gridenginemaster string $ge_master"
    done | debconf-set-selections
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
java_major=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
if ((java_major < 17)); then
  echo "Java 17 or newer is needed, found $java_major" >&2
  exit 1
fi

# --- services the integration tests use ---------------------------------------------------------------------
# Real OpenSSH servers in network namespaces (10.200.0.0/24, inside this machine only), each its own host.
log "starting the SSH test hosts"
trap 'scripts/test-hosts.sh down >/dev/null 2>&1 || true' EXIT
scripts/test-hosts.sh up 2

# A real Slurm cluster (slurmctld here, compute nodes gantry-c1 and gantry-c2 in namespaces on the same bridge) and
# Grid Engine, both behind a login sshd on 127.0.0.1:2222; the summary is /var/lib/gantry-test-cluster/cluster.env.
log "starting the test cluster (Slurm, Grid Engine)"
trap 'scripts/test-cluster.sh down >/dev/null 2>&1 || true; scripts/test-hosts.sh down >/dev/null 2>&1 || true' EXIT
scripts/test-cluster.sh up

# A real PostgreSQL server on 127.0.0.1:55432 for the shared state store; the summary is
# /var/lib/gantry-test-postgres/postgres.env.
log "starting the PostgreSQL test server"
trap 'scripts/test-postgres.sh down >/dev/null 2>&1 || true; scripts/test-cluster.sh down >/dev/null 2>&1 || true
      scripts/test-hosts.sh down >/dev/null 2>&1 || true' EXIT
scripts/test-postgres.sh up

# The node network of the Kubernetes test cluster (KubeTestCluster in backend-aks's tests): namespaces gantry-k1 and
# gantry-k2 on the same bridge, in which its kubelet runs pods; the summary is /var/lib/gantry-test-kube/kube.env.
log "starting the Kubernetes test nodes"
trap 'scripts/test-kube.sh down >/dev/null 2>&1 || true; scripts/test-postgres.sh down >/dev/null 2>&1 || true
      scripts/test-cluster.sh down >/dev/null 2>&1 || true; scripts/test-hosts.sh down >/dev/null 2>&1 || true' EXIT
scripts/test-kube.sh up

# The node network of the Azure Batch fake (BatchFake in backend-batch's tests, and scripts/test-batch.sh up for the
# end-to-end runs and the benchmark): namespaces gantry-b1 to gantry-b4 on the same bridge, in which its nodes run
# tasks, each at its own address; the summary is /var/lib/gantry-test-batch/nodes.env. Without them the fake fails.
log "starting the Azure Batch fake's nodes"
trap 'scripts/test-batch.sh down >/dev/null 2>&1 || true; scripts/test-batch.sh nodes-down >/dev/null 2>&1 || true
      scripts/test-kube.sh down >/dev/null 2>&1 || true; scripts/test-postgres.sh down >/dev/null 2>&1 || true
      scripts/test-cluster.sh down >/dev/null 2>&1 || true; scripts/test-hosts.sh down >/dev/null 2>&1 || true' EXIT
scripts/test-batch.sh nodes-up

# Podman (runc, a busybox test image) for the manual backend's container mode; installs what is missing.
log "preparing podman"
scripts/setup-podman.sh

# --- build and unit/integration tests --------------------------------------------------------------------------
log "build and test all modules"
# What this run builds is written after this second; an older archive is a previous run's. The benchmarks' class
# path is removed first: Maven leaves that file untouched when its text would not change, so its age tells nothing.
bench_classpath=benchmarks/target/benchmarks.classpath
rm -f "$bench_classpath"
build_started=$(date +%s)
# What a failed test printed goes to its surefire output file, not to this log; when the build fails, the end of each
# such file is printed here, so that a failure on a machine one cannot log in to (CI) says what happened. A test
# class with an output file and no report is one whose fork was stopped (a hang past surefire's timeout).
print_failed_test_output() {
  local output report
  while IFS= read -r output; do
    report="${output%-output.txt}.txt"
    if [[ ! -f "$report" ]] || grep -q -E 'FAILURE!|ERROR!' "$report"; then
      printf '\n==> the end of %s\n' "$output"
      tail -n 400 "$output"
    fi
  done < <(find . -path '*/target/surefire-reports/*-output.txt' -newermt "@$build_started" 2>/dev/null | sort)
}
# Modules build in parallel (-T): the four backends' suites spend most of their time waiting on their test hosts, and
# none shares a host with another (manual: the SSH test hosts; cyclecloud: the test cluster; aks: the Kubernetes test
# nodes; batch: the Batch fake's nodes). The one other user of the SSH test hosts, runs, may build beside manual:
# manual's fault tests restart sshd there, and wait until no other test JVM uses those hosts (TestHosts' lease). The
# CLI's suite, which uses every host, needs every backend built, so it runs alone at the end.
if ! ./mvnw -B -ntp -T "$build_threads" verify "$@"; then
  print_failed_test_output
  exit 1
fi

# Whether this run built FILE: it exists and was written after the build started.
built_by_this_run() { [[ -f "$1" ]] && (($(stat -c %Y "$1") >= build_started)); }
# Fails the test command: the benchmarks were asked for (the default) and this run did not build what they need.
benchmarks_not_built() {
  echo "test-all: $1 was not built by this run (Maven arguments: ${*:2}), so the benchmarks cannot run; run" \
    "without Maven arguments that leave it out (such as -pl), or set GANTRY_SKIP_BENCHMARKS=1 to skip the" \
    "benchmarks on purpose" >&2
  exit 1
}

# --- benchmarks against the real test cluster -------------------------------------------------------------------
# Each prints its figures and whether the issue's targets hold (docs/PERFORMANCE.md has the recorded runs); a
# figure below target is reported, not failed on: submission rates move with the machine's load.
# A benchmark that finds its work was not all done (a job missing, a record not listed) exits non-zero and so fails
# the test command.
log "benchmarks: the CycleCloud backend over SSH (Slurm, Grid Engine), the state store, a 1,000-step run's poll, a 1,000-job matrix's submit, the AKS backend's polls and submits on the Kubernetes test cluster and the Batch backend's submitAll and polls of 10,000 tasks on the Batch fake"
if $skip_benchmarks; then
  echo "skipped: GANTRY_SKIP_BENCHMARKS=1"
elif built_by_this_run "$bench_classpath"; then
  bench_cp="benchmarks/target/classes:$(cat "$bench_classpath")"
  java -cp "$bench_cp" dev.gantry.benchmarks.SlurmSshBenchmark 100 10
  java -cp "$bench_cp" dev.gantry.benchmarks.GridEngineSshBenchmark 20 10
  java -cp "$bench_cp" dev.gantry.benchmarks.StateStoreBenchmark 20000 10000
  java -cp "$bench_cp" dev.gantry.benchmarks.RunPollBenchmark 1000
  java -cp "$bench_cp" dev.gantry.benchmarks.WorkflowSubmitBenchmark 1000
  # The Kubernetes test cluster in-process, over the node namespaces scripts/test-kube.sh made above.
  java -cp "$bench_cp" dev.gantry.benchmarks.AksStatusBenchmark 1000
  java -cp "$bench_cp" dev.gantry.benchmarks.AksSubmitBenchmark 1000
  # The Batch backend's submitAll and statuses against the Batch fake as a process, which counts the calls; a long
  # autoscale interval keeps the pools Gantry makes at zero nodes, so the tasks stay pending while they are polled.
  scripts/test-batch.sh up --control --account eastus --autoscale-interval PT1H
  java -cp "$bench_cp" dev.gantry.benchmarks.BatchSubmitBenchmark 10000 10000
  scripts/test-batch.sh down
else
  benchmarks_not_built "the benchmarks module ($bench_classpath)" "$@"
fi

# --- end to end through the launcher -------------------------------------------------------------------------
log "end-to-end: the gantry command"
scripts/e2e.sh

# --- end to end as a library: the project of docs/library.md, from its blocks, on this build's artifacts ----------
log "end-to-end: a new Maven project built and run from docs/library.md"
scripts/e2e-library.sh

# --- start-up of the command, against a bare java -version (reported, not failed on, as the benchmarks above) ---
log "benchmark: start-up of ./gantry and of the installed archive against java -version"
archive="$(compgen -G 'cli/target/gantry-*.tar.gz' | head -n 1 || true)"
if $skip_benchmarks; then
  echo "skipped: GANTRY_SKIP_BENCHMARKS=1"
elif ! built_by_this_run "$bench_classpath"; then
  benchmarks_not_built "the benchmarks module ($bench_classpath)" "$@"
elif [[ -z "$archive" ]] || ! built_by_this_run "$archive"; then
  benchmarks_not_built "the installable archive (cli/target/gantry-VERSION.tar.gz)" "$@"
else
  install_dir="$(mktemp -d)"
  tar xzf "$archive" -C "$install_dir"
  java -cp "benchmarks/target/classes:$(cat "$bench_classpath")" \
    dev.gantry.benchmarks.StartupComparison 15 examples/quickstart.yaml ./gantry "$install_dir"/gantry-*/bin/gantry
  rm -rf "$install_dir"
fi

if $skip_benchmarks; then
  log "all tests passed; the benchmarks were skipped (GANTRY_SKIP_BENCHMARKS=1)"
else
  log "all tests passed"
fi
