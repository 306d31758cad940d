#!/usr/bin/env bash
# The local Azure Batch fake (BatchFake in backend-batch's tests) as a process, for scripts/e2e.sh and the Batch
# benchmark: a Batch account on 127.0.0.1 only, whose nodes run tasks in network namespaces of their own (gantry-b1 to
# gantry-b4 on the test bridge, scripts/lib/batch-nodes.sh), their directories under its state directory. Nothing
# here is reachable from outside the machine.
#
# "up" needs a build first (backend-batch's test classes and target/batch-fake.classpath):
#   ./mvnw -o -B package -DskipTests
# The node commands need root and iproute2 (scripts/test-all.sh installs it); the in-process fake of the tests
# (new BatchFake()) needs the nodes too, and fails naming "nodes-up" without them.
#
# Usage:
#   scripts/test-batch.sh nodes-up       make the node namespaces gantry-b1..b4 and their hosts files; idempotent,
#                                        repairs leftovers; writes $GANTRY_TEST_BATCH_DIR/nodes.env
#   scripts/test-batch.sh nodes-down     remove them (and the bridge when no other test namespace uses it)
#   scripts/test-batch.sh nodes-status   one line per node; exit 0 only when all are up
#   scripts/test-batch.sh up [FLAG...]   bring the nodes up, then start the fake (idempotent: a running one is kept),
#                                        wait until it serves and write its summary; FLAGs go to BatchFakeMain
#                                        (e.g. --control, --account eastus, --autoscale-interval PT1S,
#                                        --node-retention PT30S); each pool scales by its own formula, an idle node
#                                        kept that long before it goes. The control endpoint (preempt a Spot node,
#                                        inject a fault, read the request counts) is served only with --control; it
#                                        refuses (409) to preempt a dedicated node, as Batch preempts only Spot ones.
#                                        --entra makes it what Spot needs: a user-subscription account over HTTPS
#                                        taking Microsoft Entra ID tokens only, with a Resource Manager fake, a
#                                        managed identity endpoint and a trust store beside it (below); add
#                                        --vm-size NAME=FAMILY:VCPUS (repeatable) for each size the plans use, e.g.
#                                        --vm-size Standard_D2s_v5=standardDSv5Family:2, and --region (eastus)
#   scripts/test-batch.sh down           stop it by its recorded pid (its nodes' processes stop with it) and remove
#                                        its files
#   scripts/test-batch.sh status         print its URL; exit 0 only when it runs
#
# State lives in GANTRY_TEST_BATCH_DIR (default /var/lib/gantry-test-batch):
#   batch.env   the summary (0600): BATCH_URL, BATCH_ACCOUNT, BATCH_AUTH (sharedKey, or entra with --entra),
#               BATCH_KEY_FILE (empty with --entra: that account takes no shared key), BATCH_CONTROL_URL (empty
#               without --control); with --entra also BATCH_REGION (the account's region), BATCH_RESOURCE_ID (the
#               account in Resource Manager's fake, user-subscription mode), BATCH_ARM_METADATA_URL (its cloud
#               metadata document, for ARM_CLOUD_METADATA_URL), BATCH_IDENTITY_ENDPOINT and BATCH_IDENTITY_HEADER (a
#               managed identity in App Service's contract: the CLI's IDENTITY_ENDPOINT and IDENTITY_HEADER, in its
#               process environment),
#               BATCH_TRUSTSTORE and BATCH_TRUSTSTORE_PASSWORD (a PKCS12 trust store of the fakes' certificate only:
#               java -Djavax.net.ssl.trustStore=... -Djavax.net.ssl.trustStorePassword=...
#               -Djavax.net.ssl.trustStoreType=PKCS12)
#   key         the account key (0600), shared key only
#   truststore.p12   the trust store, --entra only
#   pid, batch.log, root/ (the nodes' directories)
set -euo pipefail
# shellcheck source=lib/test-net.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/test-net.sh"
# shellcheck source=lib/batch-nodes.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/batch-nodes.sh"

STATE=${GANTRY_TEST_BATCH_DIR:-/var/lib/gantry-test-batch}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
READY_SECONDS=60
STOP_SECONDS=30

die() { echo "test-batch: $*" >&2; exit 1; }

# The pid of the running fake, if one runs (a pid file left by a killed run names no such process).
fake_pid() {
  local pid
  pid=$(cat "$STATE/pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && grep -q BatchFakeMain "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

cmd_up() {
  local classes="$ROOT/backend-batch/target" pid
  local classpath_file="$classes/batch-fake.classpath"
  if pid=$(fake_pid); then
    echo "test-batch: the fake already runs (pid $pid): $(grep '^BATCH_URL=' "$STATE/batch.env")"
    return 0
  fi
  [ -f "$classpath_file" ] && [ -d "$classes/test-classes" ] \
    || die "backend-batch's test classes are not built ($classpath_file); build first: ./mvnw -o -B package -DskipTests"
  command -v java >/dev/null 2>&1 || die "missing java; install a JDK 17"
  rm -rf "$STATE/root" "$STATE/batch.env" "$STATE/truststore.p12"
  mkdir -p "$STATE/root"
  : >"$STATE/batch.log"
  # Its own session, so that "down"'s signal reaches it and nothing of the caller's; no inherited lock or terminal.
  # It runs from the repository, where container tasks find scripts/setup-podman.sh (through TestPodman).
  cd "$ROOT"
  setsid java -cp "$classes/test-classes:$classes/classes:$(cat "$classpath_file")" \
    dev.gantry.backend.batch.fake.BatchFakeMain --env "$STATE/batch.env" --key-file "$STATE/key" \
    --root "$STATE/root" "$@" </dev/null >"$STATE/batch.log" 2>&1 9>&- &
  echo $! >"$STATE/pid"
  local waited=0
  until grep -q '^ready ' "$STATE/batch.log" 2>/dev/null; do
    if ! kill -0 "$(cat "$STATE/pid")" 2>/dev/null; then
      tail -n 20 "$STATE/batch.log" >&2
      die "the fake ended before it served (its output above)"
    fi
    if [ "$waited" -ge "$READY_SECONDS" ]; then
      tail -n 20 "$STATE/batch.log" >&2
      cmd_down
      die "the fake did not serve within ${READY_SECONDS}s (its output above)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  grep '^ready ' "$STATE/batch.log"
}

cmd_down() {
  local pid
  if pid=$(fake_pid); then
    net_stop_pid "$pid" "$STOP_SECONDS" "test-batch: the fake"
  fi
  rm -rf "$STATE/root" "$STATE/batch.env" "$STATE/key" "$STATE/truststore.p12" "$STATE/pid"
}

cmd_status() {
  local pid
  if pid=$(fake_pid) && [ -f "$STATE/batch.env" ]; then
    echo "batch fake pid $pid $(grep '^BATCH_URL=' "$STATE/batch.env")"
    return 0
  fi
  echo "batch fake off"
  return 1
}

# One change of the node network at a time: test runs of several modules may call "nodes-up" together.
with_nodes_lock() {
  command -v flock >/dev/null 2>&1 || die "missing flock; install the Debian package util-linux"
  mkdir -p "$STATE"
  (
    flock 9
    "$@"
  ) 9>"$STATE.nodes.lock"
}

case "${1:-}" in
  up) shift; with_nodes_lock batch_nodes_up >/dev/null; cmd_up "$@" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  nodes-up) with_nodes_lock batch_nodes_up ;;
  nodes-down) with_nodes_lock batch_nodes_down ;;
  nodes-status) batch_nodes_status ;;
  *) echo "usage: $0 up [BatchFakeMain flag...] | down | status | nodes-up | nodes-down | nodes-status" >&2; exit 2 ;;
esac
