#!/usr/bin/env bash
# Real SSH test hosts on this machine: one OpenSSH server per network namespace, each with its own hostname,
# address, host key and a key-only test user. Nothing here is reachable from outside the machine.
#
# Needs root and these Debian packages (this script installs nothing itself; scripts/test-all.sh does):
#   openssh-server openssh-client iproute2 util-linux procps
#
# Usage:
#   scripts/test-hosts.sh up [N]            start hosts gantry-h1..gantry-hN (default 2); idempotent, repairs leftovers
#   scripts/test-hosts.sh down              stop every test host and remove namespaces, veths and the bridge
#   scripts/test-hosts.sh status [N]        print each host's state; exit 0 only when hosts 1..N (default 2) are up
# Fault injection (used by the tests):
#   scripts/test-hosts.sh drop-sessions K   kill host K's open SSH connections (the listener stays up)
#   scripts/test-hosts.sh restart-sshd K    restart host K's sshd listener (open connections survive, as on a real host)
#   scripts/test-hosts.sh stop-sshd K       stop host K's sshd listener (new connections are refused); "up" starts it
#   scripts/test-hosts.sh power-off K       host K falls silent at once (no FIN, no RST), then its namespace is deleted
#
# Layout: bridge gantrybr0 with 10.200.0.1/24 in the root namespace; host K lives in namespace gantry-hK at
# 10.200.0.(10+K), port 22, joined to the bridge by the veth pair gantry-vK (root side) / eth0 (inside).
# State lives in GANTRY_TEST_HOSTS_DIR (default /var/lib/gantry-test-hosts):
#   hosts            one line per host that is up: name address port user identity fingerprint (tab-separated)
#   known_hosts      the host keys of those hosts, in OpenSSH known_hosts format
#   client_ed25519   the client key pair the tests log in with (user "gantry"; root too, for container mode)
#   root_authorized_keys  that client key, for root's logins
#   hK/              host K's sshd_config, ed25519 host key, pid file and log
# Host keys and the client key are kept by "down", so pinned fingerprints stay valid across restarts.
# All hosts share this machine's file system and the one "gantry" user (home /home/gantry).
set -euo pipefail
# No "grep -q" at the end of a pipe: it exits at the first match, the writer dies of SIGPIPE and pipefail
# turns a match into a failure.

STATE=${GANTRY_TEST_HOSTS_DIR:-/var/lib/gantry-test-hosts}
BRIDGE=gantrybr0
NET=10.200.0
PORT=22
TEST_USER=gantry

die() { echo "test-hosts: $*" >&2; exit 1; }

require_root_and_tools() {
  [ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces and starts sshd); run scripts/test-all.sh as root"
  local tool
  for tool in /usr/sbin/sshd ssh-keygen ip unshare nsenter flock pgrep; do
    command -v "$tool" >/dev/null 2>&1 \
      || die "missing $tool; install the Debian packages openssh-server openssh-client iproute2 util-linux procps"
  done
}

ns_name() { echo "gantry-h$1"; }
address() { echo "$NET.$((10 + $1))"; }
host_dir() { echo "$STATE/h$1"; }

ns_exists() { ip netns list | awk '{print $1}' | grep -x "$(ns_name "$1")" >/dev/null; }

# Host numbers of the gantry-hK namespaces that exist now.
existing_hosts() { ip netns list | awk '{print $1}' | sed -n 's/^gantry-h\([0-9][0-9]*\)$/\1/p' | sort -n; }

sshd_pid() {
  local pidfile pid
  pidfile="$(host_dir "$1")/sshd.pid"
  [ -f "$pidfile" ] || return 1
  pid=$(cat "$pidfile" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # A recycled pid is not our sshd: it must live in this host's namespace.
  ns_exists "$1" && ip netns pids "$(ns_name "$1")" | grep -x "$pid" >/dev/null || return 1
  echo "$pid"
}

listening() { timeout 1 bash -c "exec 3<>/dev/tcp/$(address "$1")/$PORT" 2>/dev/null; }

host_is_up() { sshd_pid "$1" >/dev/null && listening "$1"; }

# Kill every process of a namespace: TERM first, KILL what is left.
kill_namespace_processes() {
  local ns pids
  ns=$(ns_name "$1")
  ns_exists "$1" || return 0
  pids=$(ip netns pids "$ns" || true)
  [ -z "$pids" ] && return 0
  kill $pids 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(ip netns pids "$ns" || true)
    [ -z "$pids" ] && return 0
    sleep 0.1
  done
  kill -9 $pids 2>/dev/null || true
}

remove_host() {
  kill_namespace_processes "$1"
  ip netns del "$(ns_name "$1")" 2>/dev/null || true
  ip link del "gantry-v$1" 2>/dev/null || true
  rm -f "$(host_dir "$1")/sshd.pid"
}

ensure_user_and_client_key() {
  mkdir -p "$STATE"
  chmod 0755 "$STATE"
  if ! id "$TEST_USER" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/bash "$TEST_USER"
  fi
  # A new account is locked ("!" in /etc/shadow); with UsePAM no sshd refuses locked accounts even for keys.
  usermod -p '*' "$TEST_USER"
  local home
  home=$(getent passwd "$TEST_USER" | cut -d: -f6)
  mkdir -p "$home/.ssh"
  if [ ! -f "$STATE/client_ed25519" ]; then
    ssh-keygen -q -t ed25519 -N '' -C gantry-test-client -f "$STATE/client_ed25519"
  fi
  chmod 0600 "$STATE/client_ed25519"
  # StrictModes wants authorized_keys under the user's own home, owned by the user, not group/world writable.
  cp "$STATE/client_ed25519.pub" "$home/.ssh/authorized_keys"
  install -m 0600 -o root -g root "$STATE/client_ed25519.pub" "$STATE/root_authorized_keys"
  chown -R "$TEST_USER:" "$home/.ssh"
  chmod 0700 "$home/.ssh"
  chmod 0600 "$home/.ssh/authorized_keys"
  chown "$TEST_USER:" "$home"
  chmod 0755 "$home"
}

ensure_bridge() {
  ip link show "$BRIDGE" >/dev/null 2>&1 || ip link add "$BRIDGE" type bridge
  ip addr replace "$NET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
}

write_sshd_config() {
  local dir=$1
  cat >"$dir/sshd_config" <<EOF
# Generated by scripts/test-hosts.sh
Port $PORT
ListenAddress 0.0.0.0
HostKey $dir/ssh_host_ed25519_key
PidFile $dir/sshd.pid
UsePAM no
PubkeyAuthentication yes
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
# root logs in only for the container-mode tests (rootful Podman, as a VM's admin runs it with sudo), with the
# same client key, listed in a file of the test state rather than in this machine's own /root/.ssh.
PermitRootLogin prohibit-password
AllowUsers $TEST_USER root
AuthorizedKeysFile .ssh/authorized_keys
StrictModes yes
Subsystem sftp internal-sftp
MaxStartups 64:30:128
LogLevel INFO
# Debian's bash reads ~/.bashrc for every command sshd runs at shell level 1; the hosts share this machine's homes,
# and a build machine's root .bashrc may do slow things (pyenv init: seconds a command). Level 1 given here makes
# the login shell level 2, so commands run as on a freshly made VM, whose admin account has no such .bashrc.
SetEnv SHLVL=1
Match User root
  AuthorizedKeysFile $STATE/root_authorized_keys
EOF
}

ensure_network() {
  local k=$1 ns addr
  ns=$(ns_name "$k")
  addr=$(address "$k")
  # A half-made host (crash, namespace deleted by power-off, stray veth) is rebuilt from scratch.
  if ! ns_exists "$k" || ! ip link show "gantry-v$k" >/dev/null 2>&1 \
      || ! ip -n "$ns" addr show dev eth0 2>/dev/null | grep "inet $addr/" >/dev/null; then
    remove_host "$k"
    ip netns add "$ns"
    ip link add "gantry-v$k" type veth peer name eth0 netns "$ns"
  fi
  ip -n "$ns" link set lo up
  ip -n "$ns" addr replace "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip link set "gantry-v$k" master "$BRIDGE"
  ip link set "gantry-v$k" up
  # A host rebuilt after power-off has a new MAC; a cached neighbour entry would black-hole it for ~30 s.
  ip neigh flush to "$addr" dev "$BRIDGE" 2>/dev/null || true
}

start_sshd() {
  local k=$1 dir
  dir=$(host_dir "$k")
  mkdir -p "$dir"
  chmod 0700 "$dir"
  [ -f "$dir/ssh_host_ed25519_key" ] \
    || ssh-keygen -q -t ed25519 -N '' -C "gantry-h$k" -f "$dir/ssh_host_ed25519_key"
  write_sshd_config "$dir"
  mkdir -p /run/sshd
  chmod 0755 /run/sshd
  /usr/sbin/sshd -t -f "$dir/sshd_config" || die "sshd rejects $dir/sshd_config"
  rm -f "$dir/sshd.pid"
  # unshare --uts gives the host its own hostname; sshd daemonizes and writes its pid file. nsenter enters the
  # network namespace only: "ip netns exec" would also remount /sys, and with it go the cgroup mounts that
  # containers started over SSH (podman, runc) need.
  nsenter --net="/run/netns/$(ns_name "$k")" unshare --uts sh -c \
    "hostname gantry-h$k && exec /usr/sbin/sshd -f '$dir/sshd_config' -E '$dir/sshd.log'"
}

wait_until_listening() {
  local k=$1
  for _ in $(seq 1 50); do
    listening "$k" && return 0
    sleep 0.1
  done
  die "gantry-h$k ($(address "$k"):$PORT) does not accept connections; see $(host_dir "$k")/sshd.log"
}

ensure_host() {
  local k=$1
  ensure_network "$k"
  if ! sshd_pid "$k" >/dev/null; then
    start_sshd "$k"
  fi
  wait_until_listening "$k"
}

fingerprint() { ssh-keygen -l -E sha256 -f "$(host_dir "$1")/ssh_host_ed25519_key.pub" | awk '{print $2}'; }

# Rewrite hosts and known_hosts from the hosts that are up now (temp + rename: readers never see half a file).
write_host_list() {
  local k hosts known
  hosts=$(mktemp "$STATE/.hosts.XXXXXX")
  known=$(mktemp "$STATE/.known_hosts.XXXXXX")
  echo "# name	address	port	user	identity	fingerprint" >"$hosts"
  for k in $(existing_hosts); do
    host_is_up "$k" || continue
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "gantry-h$k" "$(address "$k")" "$PORT" "$TEST_USER" \
      "$STATE/client_ed25519" "$(fingerprint "$k")" >>"$hosts"
    local pub
    pub=$(awk '{print $1" "$2}' "$(host_dir "$k")/ssh_host_ed25519_key.pub")
    if [ "$PORT" = 22 ]; then
      echo "$(address "$k") $pub" >>"$known"
    else
      echo "[$(address "$k")]:$PORT $pub" >>"$known"
    fi
  done
  chmod 0644 "$hosts" "$known"
  mv -f "$hosts" "$STATE/hosts"
  mv -f "$known" "$STATE/known_hosts"
}

host_number() {
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] && [ "$1" -le 200 ] || die "host number must be 1..200, got '${1:-}'"
  echo "$1"
}

cmd_up() {
  local n k
  n=$(host_number "${1:-2}")
  require_root_and_tools
  ensure_user_and_client_key
  ensure_bridge
  for k in $(seq 1 "$n"); do ensure_host "$k"; done
  write_host_list
  cat "$STATE/hosts"
}

cmd_down() {
  require_root_and_tools
  local k link
  for k in $(existing_hosts); do remove_host "$k"; done
  # veths whose namespace is already gone (a crash between steps) and the bridge itself.
  for link in $(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep '^gantry-v[0-9]' || true); do
    ip link del "$link" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
  rm -f "$STATE/hosts" "$STATE/known_hosts" "$STATE"/h*/sshd.pid
}

cmd_status() {
  local n k all_up=0
  n=$(host_number "${1:-2}")
  [ "$(id -u)" = 0 ] || die "must run as root"
  for k in $(seq 1 "$n") $(existing_hosts); do echo "$k"; done | sort -nu | while read -r k; do
    if host_is_up "$k"; then
      echo "gantry-h$k $(address "$k"):$PORT up (sshd pid $(sshd_pid "$k"))"
    elif ns_exists "$k"; then
      echo "gantry-h$k $(address "$k"):$PORT sshd down"
    else
      echo "gantry-h$k $(address "$k"):$PORT off"
    fi
  done
  for k in $(seq 1 "$n"); do host_is_up "$k" || all_up=1; done
  return $all_up
}

cmd_drop_sessions() {
  local k listener pid victims=""
  k=$(host_number "${1:-}")
  require_root_and_tools
  ns_exists "$k" || die "gantry-h$k is not up"
  listener=$(sshd_pid "$k" || true)
  # Only the per-connection sshd processes ("sshd: gantry [priv]", "sshd: gantry@notty", pre-auth ones), all in
  # one kill so that every connection ends at once; what the sessions started lives on, as on a real host.
  for pid in $(ip netns pids "$(ns_name "$k")"); do
    [ "$pid" = "$listener" ] && continue
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep '^sshd: ' >/dev/null; then
      victims="$victims $pid"
    fi
  done
  [ -n "$victims" ] && kill -9 $victims 2>/dev/null || true
}

stop_listener() {
  local pid
  if pid=$(sshd_pid "$1"); then
    kill "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
}

cmd_stop_sshd() {
  local k
  k=$(host_number "${1:-}")
  require_root_and_tools
  stop_listener "$k"
}

cmd_restart_sshd() {
  local k
  k=$(host_number "${1:-}")
  require_root_and_tools
  stop_listener "$k"
  ensure_bridge
  ensure_host "$k"
}

cmd_power_off() {
  local k
  k=$(host_number "${1:-}")
  require_root_and_tools
  # Cable first, so that the host falls silent as a switched-off machine does (no FIN, no RST), then the rest.
  ip link del "gantry-v$k" 2>/dev/null || true
  remove_host "$k"
}

case "${1:-}" in
  up|down|status|drop-sessions|restart-sshd|stop-sshd|power-off) ;;
  *) echo "usage: $0 up [N] | down | status [N] | drop-sessions K | restart-sshd K | stop-sshd K | power-off K" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || die "must run as root (it creates network namespaces and starts sshd); run scripts/test-all.sh as root"

(
  mkdir -p "$STATE"
  # One change at a time: test runs of several modules may call "up" together.
  flock 9
  case "${1:-}" in
    up) cmd_up "${2:-2}" ;;
    down) cmd_down ;;
    status) cmd_status "${2:-2}" ;;
    drop-sessions) cmd_drop_sessions "${2:-}" ;;
    restart-sshd) cmd_restart_sshd "${2:-}" ;;
    stop-sshd) cmd_stop_sshd "${2:-}" ;;
    power-off) cmd_power_off "${2:-}" ;;
  esac
) 9>"${GANTRY_TEST_HOSTS_DIR:-/var/lib/gantry-test-hosts}.lock"
