#!/usr/bin/env bash
# The node network of the Kubernetes test cluster (KubeTestCluster in backend-aks's tests): one network namespace per
# node, on the test bridge, in which the test cluster's kubelet runs each pod's processes. The API server and the
# controllers run inside the test (or as a process of their own); this script only makes the machines' network.
# Nothing here is reachable from outside the machine.
#
# Needs root and iproute2 (scripts/test-all.sh installs it).
#
# Usage:
#   scripts/test-kube.sh up        make nodes gantry-k1 and gantry-k2; idempotent, repairs leftovers
#   scripts/test-kube.sh down      stop the test cluster process if one runs, remove the nodes (the bridge stays
#                                  while scripts/test-hosts.sh or scripts/test-cluster.sh namespaces use it)
#   scripts/test-kube.sh status    print each node's state; exit 0 only when both are up
#   scripts/test-kube.sh cluster [--node-type SIZE,cpu=N,memory=Q[,gpus=N][,spot]]...
#                                  after the build (backend-aks's test classes and target/test-cluster.classpath),
#                                  start KubeTestCluster as a background process on the nodes "up" made, wait until
#                                  it serves and write its summary $STATE/cluster/cluster.env (KUBE_SERVER,
#                                  KUBE_NAMESPACE, KUBE_KUBECONFIG for gantry, KUBE_ADMIN_KUBECONFIG, KUBE_NODES);
#                                  without --node-type its nodes are the conformance kit's
#   scripts/test-kube.sh cluster-down   stop it (its pods' processes stop with it) and remove its files
#
# Layout: node K is namespace gantry-kK at 10.200.0.(150+K)/24 on bridge gantrybr0, through the veth pair gantry-kvK
# (root side) / eth0 (inside). Pods' DNS names go into /etc/netns/gantry-kK/hosts, which "ip netns exec" bind-mounts
# over /etc/hosts for the processes it starts; the test cluster rewrites it in place as pods come and go.
# The summary for the tests is $GANTRY_TEST_KUBE_DIR/kube.env (default /var/lib/gantry-test-kube/kube.env).
set -euo pipefail
# shellcheck source=lib/test-net.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/test-net.sh"

STATE=${GANTRY_TEST_KUBE_DIR:-/var/lib/gantry-test-kube}
NODES=2

die() { echo "test-kube: $*" >&2; exit 1; }

require_root_and_tools() {
  [ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces); run scripts/test-all.sh as root"
  command -v ip >/dev/null 2>&1 || die "missing ip; install the Debian package iproute2"
  command -v flock >/dev/null 2>&1 || die "missing flock; install the Debian package util-linux"
}

ns_name() { echo "gantry-k$1"; }
veth_name() { echo "gantry-kv$1"; }
address() { echo "$TEST_NET.$((150 + $1))"; }
hosts_file() { echo "/etc/netns/$(ns_name "$1")/hosts"; }

node_is_up() {
  net_ns_exists "$(ns_name "$1")" && ip -n "$(ns_name "$1")" addr show dev eth0 2>/dev/null \
    | grep "inet $(address "$1")/" >/dev/null
}

# The hosts file exists before any process starts ("ip netns exec" bind-mounts only files that exist); the test
# cluster adds the pods' names to it. Kept when present: a running cluster's processes hold it.
ensure_hosts_file() {
  local file
  file=$(hosts_file "$1")
  mkdir -p "$(dirname "$file")"
  if [ ! -s "$file" ]; then
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n%s\t%s\n' \
      "$(address "$1")" "$(ns_name "$1")" >"$file"
  fi
}

write_summary() {
  net_write_node_summary "$STATE/kube.env" KUBE "$NODES" ns_name address \
    "Written by scripts/test-kube.sh: the node namespaces of the Kubernetes test cluster." \
    'KUBE_HOSTS_DIR="/etc/netns"'
}

cmd_up() {
  local k
  require_root_and_tools
  net_ensure_bridge
  for k in $(seq 1 "$NODES"); do
    net_ensure_namespace "$(ns_name "$k")" "$(veth_name "$k")" "$(address "$k")"
    ensure_hosts_file "$k"
  done
  write_summary
  cmd_status
}

cmd_down() {
  require_root_and_tools
  # A test cluster still running would run its pods in namespaces about to go.
  cmd_cluster_down
  net_remove_nodes "$NODES" ns_name veth_name
  rm -f "$STATE/kube.env"
}

cmd_status() {
  net_nodes_status "$NODES" ns_name address node_is_up
}

# --- the test cluster as a process ------------------------------------------------------------------------------
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLUSTER_DIR="$STATE/cluster"
CLUSTER_PID="$CLUSTER_DIR/pid"
CLUSTER_READY_SECONDS=60
CLUSTER_STOP_SECONDS=30

# The pid of the running test cluster, if one runs (a pid file left by a killed run names no such process).
cluster_pid() {
  local pid
  pid=$(cat "$CLUSTER_PID" 2>/dev/null) || return 1
  [ -n "$pid" ] && grep -q KubeTestCluster "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

cmd_cluster() {
  local classes="$ROOT/backend-aks/target" pid server
  local classpath_file="$classes/test-cluster.classpath"
  [ -f "$classpath_file" ] && [ -d "$classes/test-classes" ] \
    || die "backend-aks's test classes are not built ($classpath_file); build first: ./mvnw -o -B package -DskipTests"
  cmd_status >/dev/null || die "the node namespaces are not up; run scripts/test-kube.sh up first"
  if pid=$(cluster_pid); then
    die "a test cluster already runs (pid $pid, $CLUSTER_DIR); stop it with scripts/test-kube.sh cluster-down"
  fi
  rm -rf "$CLUSTER_DIR"
  mkdir -p "$CLUSTER_DIR/work"
  : >"$CLUSTER_DIR/cluster.log"
  # Its own session, so that cluster-down's signal reaches it and nothing of the caller's; no inherited lock or
  # terminal. The pods' processes are its children: it stops them when it is stopped.
  setsid java -cp "$classes/test-classes:$classes/classes:$(cat "$classpath_file")" \
    dev.gantry.backend.aks.testcluster.KubeTestCluster --kubeconfig "$CLUSTER_DIR/kubeconfig" \
    --admin-kubeconfig "$CLUSTER_DIR/admin-kubeconfig" --namespace gantry-e2e --work "$CLUSTER_DIR/work" "$@" \
    </dev/null >"$CLUSTER_DIR/cluster.log" 2>&1 9>&- &
  echo $! >"$CLUSTER_PID"
  local waited=0
  until server=$(sed -n 's/^ready \([^ ]*\) .*/\1/p' "$CLUSTER_DIR/cluster.log") && [ -n "$server" ]; do
    if ! kill -0 "$(cat "$CLUSTER_PID")" 2>/dev/null; then
      tail -n 20 "$CLUSTER_DIR/cluster.log" >&2
      rm -rf "$CLUSTER_DIR"
      die "the test cluster ended before it served (its output above)"
    fi
    if [ "$waited" -ge "$CLUSTER_READY_SECONDS" ]; then
      tail -n 20 "$CLUSTER_DIR/cluster.log" >&2
      cmd_cluster_down
      die "the test cluster did not serve within ${CLUSTER_READY_SECONDS}s (its output above)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  cat >"$CLUSTER_DIR/cluster.env" <<SUMMARY
# Written by scripts/test-kube.sh cluster: the Kubernetes test cluster's API server and kubeconfigs.
KUBE_SERVER="$server"
KUBE_NAMESPACE="gantry-e2e"
KUBE_KUBECONFIG="$CLUSTER_DIR/kubeconfig"
KUBE_ADMIN_KUBECONFIG="$CLUSTER_DIR/admin-kubeconfig"
KUBE_NODES="$(sed -n 's/^ready .* nodes \(.*\)/\1/p' "$CLUSTER_DIR/cluster.log" | tr ',' ' ')"
KUBE_LOG="$CLUSTER_DIR/cluster.log"
SUMMARY
  grep '^ready ' "$CLUSTER_DIR/cluster.log"
}

cmd_cluster_down() {
  local pid
  if pid=$(cluster_pid); then
    net_stop_pid "$pid" "$CLUSTER_STOP_SECONDS" "test-kube: the test cluster"
  fi
  rm -rf "$CLUSTER_DIR"
}

case "${1:-}" in
  up|down|status|cluster|cluster-down) ;;
  *) echo "usage: $0 up | down | status | cluster [--node-type SPEC]... | cluster-down" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces); run scripts/test-all.sh as root"

# The cluster process runs outside the lock: it lives on after this script, and must not hold the lock while it does.
case "$1" in
  cluster) shift; cmd_cluster "$@"; exit ;;
  cluster-down) cmd_cluster_down; exit ;;
esac

(
  mkdir -p "$STATE"
  # One change at a time: test runs of several modules may call "up" together.
  flock 9
  case "$1" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
  esac
) 9>"${GANTRY_TEST_KUBE_DIR:-/var/lib/gantry-test-kube}.lock"
