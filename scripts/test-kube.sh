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
#   scripts/test-kube.sh down      remove them (the bridge stays while scripts/test-hosts.sh or
#                                  scripts/test-cluster.sh namespaces use it)
#   scripts/test-kube.sh status    print each node's state; exit 0 only when both are up
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
  local k namespaces="" addresses="" tmp
  for k in $(seq 1 "$NODES"); do
    namespaces="$namespaces $(ns_name "$k")"
    addresses="$addresses $(address "$k")"
  done
  mkdir -p "$STATE"
  tmp=$(mktemp "$STATE/.kube.env.XXXXXX")
  cat >"$tmp" <<SUMMARY
# Written by scripts/test-kube.sh: the node namespaces of the Kubernetes test cluster.
KUBE_NODE_NAMESPACES="${namespaces# }"
KUBE_NODE_ADDRESSES="${addresses# }"
KUBE_HOSTS_DIR="/etc/netns"
SUMMARY
  chmod 0644 "$tmp"
  mv -f "$tmp" "$STATE/kube.env"
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
  local k
  require_root_and_tools
  for k in $(seq 1 "$NODES"); do
    net_remove_namespace "$(ns_name "$k")" "$(veth_name "$k")"
    rm -rf "/etc/netns/$(ns_name "$k")"
  done
  net_remove_bridge_if_unused
  rm -f "$STATE/kube.env"
}

cmd_status() {
  local k all_up=0
  for k in $(seq 1 "$NODES"); do
    if node_is_up "$k"; then
      echo "$(ns_name "$k") $(address "$k") up"
    else
      echo "$(ns_name "$k") $(address "$k") off"
      all_up=1
    fi
  done
  return $all_up
}

case "${1:-}" in
  up|down|status) ;;
  *) echo "usage: $0 up | down | status" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces); run scripts/test-all.sh as root"

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
