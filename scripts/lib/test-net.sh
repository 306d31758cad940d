# Shared by scripts/test-hosts.sh and scripts/test-cluster.sh (sourced, not run): the test network and the test
# user. Everything here lives on this machine only.
#
# The network: bridge gantrybr0 with 10.200.0.1/24 in the root namespace; every test machine is a network namespace
# joined to it by a veth pair (root side named by the caller, "eth0" inside). Namespaces share this machine's file
# system, users and process ids; only the network (and, where the caller asks for it, the hostname) is their own.
#   gantry-hK  SSH test hosts (scripts/test-hosts.sh), 10.200.0.(10+K), veth gantry-vK
#   gantry-cK  Slurm compute nodes (scripts/test-cluster.sh), 10.200.0.(100+K), veth gantry-cvK
#   gantry-kK  Kubernetes test nodes (scripts/test-kube.sh), 10.200.0.(150+K), veth gantry-kvK
#   gantry-bK  Azure Batch fake nodes (scripts/test-batch.sh nodes-up, lib/batch-nodes.sh), 10.200.0.(160+K), K <= 4,
#              veth gantry-bvK
# The bridge stays while any gantry-h*, gantry-c*, gantry-k* or gantry-b* namespace exists, whichever script is torn
# down first.
#
# The caller sets -euo pipefail and defines die().
# shellcheck shell=bash

TEST_BRIDGE=gantrybr0
TEST_NET=10.200.0

net_ns_exists() { ip netns list | awk '{print $1}' | grep -x "$1" >/dev/null; }

net_ns_pids() { ip netns pids "$1" 2>/dev/null || true; }

# Kill every process of a namespace: TERM first, KILL what is left.
net_kill_namespace_processes() {
  local ns=$1 pids
  net_ns_exists "$ns" || return 0
  pids=$(net_ns_pids "$ns")
  [ -z "$pids" ] && return 0
  kill $pids 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(net_ns_pids "$ns")
    [ -z "$pids" ] && return 0
    sleep 0.1
  done
  kill -9 $pids 2>/dev/null || true
}

# net_remove_namespace NS VETH: its processes, the namespace and the root side of its veth.
net_remove_namespace() {
  net_kill_namespace_processes "$1"
  ip netns del "$1" 2>/dev/null || true
  ip link del "$2" 2>/dev/null || true
}

net_ensure_bridge() {
  ip link show "$TEST_BRIDGE" >/dev/null 2>&1 || ip link add "$TEST_BRIDGE" type bridge
  ip addr replace "$TEST_NET.1/24" dev "$TEST_BRIDGE"
  ip link set "$TEST_BRIDGE" up
}

# The bridge goes only when no test namespace uses it any more.
net_remove_bridge_if_unused() {
  if ip netns list | awk '{print $1}' | grep -E '^gantry-[hckb][0-9]+$' >/dev/null; then
    return 0
  fi
  ip link del "$TEST_BRIDGE" 2>/dev/null || true
}

# net_remove_nodes COUNT NS_OF VETH_OF: the nodes 1..COUNT of a test network, whose names the caller's functions
# give (NS_OF K, VETH_OF K), with their processes and /etc/netns files; then the bridge if no test namespace is left.
net_remove_nodes() {
  local count=$1 ns_of=$2 veth_of=$3 k
  for k in $(seq 1 "$count"); do
    net_remove_namespace "$("$ns_of" "$k")" "$("$veth_of" "$k")"
    rm -rf "/etc/netns/$("$ns_of" "$k")"
  done
  net_remove_bridge_if_unused
}

# net_nodes_status COUNT NS_OF ADDRESS_OF IS_UP: one line per node ("NS ADDRESS up|off"); 0 only when every node is
# up.
net_nodes_status() {
  local count=$1 ns_of=$2 address_of=$3 is_up=$4 k all_up=0
  for k in $(seq 1 "$count"); do
    if "$is_up" "$k"; then
      echo "$("$ns_of" "$k") $("$address_of" "$k") up"
    else
      echo "$("$ns_of" "$k") $("$address_of" "$k") off"
      all_up=1
    fi
  done
  return $all_up
}

# net_ensure_namespace NS VETH ADDRESS: namespace NS at ADDRESS/24 on the bridge, through the veth pair VETH (root
# side, at most 15 characters) / eth0 (inside). A half-made one (crash, namespace deleted, stray veth) is rebuilt.
net_ensure_namespace() {
  local ns=$1 veth=$2 addr=$3
  if ! net_ns_exists "$ns" || ! ip link show "$veth" >/dev/null 2>&1 \
      || ! ip -n "$ns" addr show dev eth0 2>/dev/null | grep "inet $addr/" >/dev/null; then
    net_remove_namespace "$ns" "$veth"
    ip netns add "$ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns"
  fi
  ip -n "$ns" link set lo up
  ip -n "$ns" addr replace "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip link set "$veth" master "$TEST_BRIDGE"
  ip link set "$veth" up
  # A namespace rebuilt after power-off has a new MAC; a cached neighbour entry would black-hole it for ~30 s, and
  # the permanent one power-off leaves (test-hosts.sh) for good.
  ip neigh del "$addr" dev "$TEST_BRIDGE" 2>/dev/null || true
  ip neigh flush to "$addr" dev "$TEST_BRIDGE" 2>/dev/null || true
}

# net_write_node_summary FILE PREFIX COUNT NS_OF ADDRESS_OF COMMENT [LINE...]: the summary the tests read, written
# whole through a rename (mode 0644): the comment, PREFIX_NODE_NAMESPACES and PREFIX_NODE_ADDRESSES of nodes 1 to
# COUNT in node order (NS_OF and ADDRESS_OF name a node's namespace and address from its number), then each LINE.
net_write_node_summary() {
  local file=$1 prefix=$2 count=$3 ns_of=$4 address_of=$5 comment=$6 k line namespaces="" addresses="" tmp
  shift 6
  for k in $(seq 1 "$count"); do
    namespaces="$namespaces $("$ns_of" "$k")"
    addresses="$addresses $("$address_of" "$k")"
  done
  mkdir -p "$(dirname "$file")"
  tmp=$(mktemp "$(dirname "$file")/.$(basename "$file").XXXXXX")
  {
    printf '# %s\n' "$comment"
    printf '%s_NODE_NAMESPACES="%s"\n' "$prefix" "${namespaces# }"
    printf '%s_NODE_ADDRESSES="%s"\n' "$prefix" "${addresses# }"
    for line in "$@"; do
      printf '%s\n' "$line"
    done
  } >"$tmp"
  chmod 0644 "$tmp"
  mv -f "$tmp" "$file"
}

# net_stop_pid PID SECONDS WHAT: stops a test server started in the background: SIGTERM, up to SECONDS for it to
# end, then SIGKILL, saying so on stderr as WHAT (for example "test-kube: the test cluster").
net_stop_pid() {
  local pid=$1 seconds=$2 what=$3 waited=0
  kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$seconds" ]; do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$what (pid $pid) did not stop within ${seconds}s; killing it" >&2
    kill -KILL "$pid"
  fi
}

# net_listening ADDRESS PORT: something accepts TCP connections there (from the root namespace).
net_listening() { timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

# net_ensure_test_user_and_client_key STATE USER: the key-only test user and the client key pair the tests log in
# with, kept in STATE/client_ed25519 (and STATE/root_authorized_keys, for root's logins).
net_ensure_test_user_and_client_key() {
  local state=$1 user=$2 home
  mkdir -p "$state"
  chmod 0755 "$state"
  if ! id "$user" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/bash "$user"
  fi
  # A new account is locked ("!" in /etc/shadow); with UsePAM no sshd refuses locked accounts even for keys.
  usermod -p '*' "$user"
  home=$(getent passwd "$user" | cut -d: -f6)
  mkdir -p "$home/.ssh"
  if [ ! -f "$state/client_ed25519" ]; then
    ssh-keygen -q -t ed25519 -N '' -C gantry-test-client -f "$state/client_ed25519"
  fi
  chmod 0600 "$state/client_ed25519"
  # StrictModes wants authorized_keys under the user's own home, owned by the user, not group/world writable.
  cp "$state/client_ed25519.pub" "$home/.ssh/authorized_keys"
  install -m 0600 -o root -g root "$state/client_ed25519.pub" "$state/root_authorized_keys"
  chown -R "$user:" "$home/.ssh"
  chmod 0700 "$home/.ssh"
  chmod 0600 "$home/.ssh/authorized_keys"
  chown "$user:" "$home"
  chmod 0755 "$home"
}
