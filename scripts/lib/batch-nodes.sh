# The node network of the Azure Batch fake (BatchFake in backend-batch's tests): one network namespace per fake
# compute node, on the test bridge, in which the fake runs each node's task processes, so that every node has an
# address of its own and a multi-instance task's ranks find each other by the addresses in AZ_BATCH_HOST_LIST.
# Sourced (after lib/test-net.sh) by scripts/test-batch.sh for its nodes-up, nodes-down and nodes-status commands.
#
# Layout: node K (1..4) is namespace gantry-bK at 10.200.0.(160+K)/24 on bridge gantrybr0, through the veth pair
# gantry-bvK (root side) / eth0 (inside). The fake runs a node's processes under the hostname gantry-bK, which
# /etc/netns/gantry-bK/hosts (bind-mounted over /etc/hosts by "ip netns exec") maps to the node's address, so that
# "hostname -i" answers it as "hostname -I" does. The summary for the tests is $GANTRY_TEST_BATCH_DIR/nodes.env (default
# /var/lib/gantry-test-batch/nodes.env).
#
# The caller sets -euo pipefail, defines die(), runs as root and holds its own lock.
# shellcheck shell=bash

BATCH_NODES=4
BATCH_NODES_STATE=${GANTRY_TEST_BATCH_DIR:-/var/lib/gantry-test-batch}

batch_node_ns() { echo "gantry-b$1"; }
batch_node_veth() { echo "gantry-bv$1"; }
batch_node_address() { echo "$TEST_NET.$((160 + $1))"; }

batch_node_hosts_file() { echo "/etc/netns/$(batch_node_ns "$1")/hosts"; }

batch_node_is_up() {
  net_ns_exists "$(batch_node_ns "$1")" && ip -n "$(batch_node_ns "$1")" addr show dev eth0 2>/dev/null \
    | grep "inet $(batch_node_address "$1")/" >/dev/null \
    && grep -E "^$(batch_node_address "$1")[[:space:]]+$(batch_node_ns "$1")\$" "$(batch_node_hosts_file "$1")" \
      >/dev/null 2>&1
}

# The node's name at its address; it exists before any process starts ("ip netns exec" bind-mounts only files that
# exist). Rewritten whole through a rename, so a process starting meanwhile sees the old file or the new one.
batch_node_ensure_hosts_file() {
  local file tmp
  file=$(batch_node_hosts_file "$1")
  mkdir -p "$(dirname "$file")"
  # Not beside it: "ip netns exec" would bind-mount any file of that directory over /etc.
  tmp=$(mktemp "/etc/netns/.$(batch_node_ns "$1")-hosts.XXXXXX")
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n%s\t%s\n' \
    "$(batch_node_address "$1")" "$(batch_node_ns "$1")" >"$tmp"
  chmod 0644 "$tmp"
  mv -f "$tmp" "$file"
}

batch_nodes_require_tools() {
  [ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces); run scripts/test-all.sh as root"
  command -v ip >/dev/null 2>&1 || die "missing ip; install the Debian package iproute2"
  command -v setsid >/dev/null 2>&1 || die "missing setsid; install the Debian package util-linux"
}

# What the tests read: the namespaces and their addresses, in node order.
batch_nodes_write_summary() {
  net_write_node_summary "$BATCH_NODES_STATE/nodes.env" BATCH "$BATCH_NODES" batch_node_ns batch_node_address \
    "Written by scripts/test-batch.sh nodes-up: the node namespaces of the Azure Batch fake."
}

# nodes-up: make the nodes; idempotent, repairs a half-made one.
batch_nodes_up() {
  local k
  batch_nodes_require_tools
  net_ensure_bridge
  for k in $(seq 1 "$BATCH_NODES"); do
    net_ensure_namespace "$(batch_node_ns "$k")" "$(batch_node_veth "$k")" "$(batch_node_address "$k")"
    batch_node_ensure_hosts_file "$k"
  done
  batch_nodes_write_summary
  batch_nodes_status
}

# nodes-down: the nodes' processes, the nodes, and the bridge when no other test namespace uses it.
batch_nodes_down() {
  batch_nodes_require_tools
  net_remove_nodes "$BATCH_NODES" batch_node_ns batch_node_veth
  rm -f "$BATCH_NODES_STATE/nodes.env"
}

# nodes-status: one line per node; 0 only when every node is up.
batch_nodes_status() {
  net_nodes_status "$BATCH_NODES" batch_node_ns batch_node_address batch_node_is_up
}
