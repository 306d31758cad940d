#!/bin/sh
# Prepares Podman for the container tests (the manual backend's, and the AKS backend's test cluster): installs
# podman, runc, catatonit and busybox-static with apt-get where one is missing (as root), and imports the test image
# localhost/gantry-test-busybox:latest (a static busybox root file system) into a storage root of its own.
# Idempotent: a second run only checks. The tests' Podman options are in test-support's TestPodman.
#
# Usage: scripts/setup-podman.sh            storage root: $GANTRY_PODMAN_ROOT, default /var/tmp/gantry-podman
#
# The Podman options match the ones the tests configure for the manual backend (containerRuntimeOptions): storage
# given on the command line (a storage.conf file slows every call down), runc with the cgroupfs manager (crun
# aborts on hosts with hybrid cgroups), and events in a file (no journald in a container).
set -eu

root=${GANTRY_PODMAN_ROOT:-/var/tmp/gantry-podman}
image=localhost/gantry-test-busybox:latest
applets="sh printf env cat sleep ls stat tr id pwd echo true false kill rm mkdir touch test [ wc head nc seq"
# Bump when the image's content changes: an older image is replaced.
revision=4

missing=""
command -v podman >/dev/null 2>&1 || missing="$missing podman"
command -v runc >/dev/null 2>&1 || missing="$missing runc"
# podman run --init starts catatonit as the container's PID 1
[ -x /usr/libexec/podman/catatonit ] || command -v catatonit >/dev/null 2>&1 || missing="$missing catatonit"
# the image has no C library: only the static build runs in it
dpkg-query -W -f '${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing="$missing busybox-static"
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup-podman: missing packages:$missing; run scripts/test-all.sh or this script as root" >&2
    exit 1
  fi
  echo "setup-podman: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing; }
fi

podman() {
  command podman --root "$root/storage" --runroot "$root/run" --storage-driver vfs --runtime runc \
    --cgroup-manager cgroupfs --events-backend file "$@"
}

if [ "$(podman image inspect --format '{{index .Labels "gantry.test-image.revision"}}' "$image" 2>/dev/null)" \
  = "$revision" ]; then
  exit 0
fi

mkdir -p "$root"
work=$(mktemp -d "$root/image.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rootfs/bin" "$work/rootfs/work" "$work/rootfs/tmp" "$work/rootfs/etc"
chmod 1777 "$work/rootfs/tmp"
# A file no host has: the conformance kit's container case checks that a job really ran in the image.
echo "gantry test image revision $revision" > "$work/rootfs/etc/gantry-test-image"
cp "$(dpkg -L busybox-static | grep -m1 '/bin/busybox$')" "$work/rootfs/bin/busybox"
for applet in $applets; do
  ln -s busybox "$work/rootfs/bin/$applet"
done
# Debian's busybox has no printenv applet: a script with its behaviour (values verbatim, exit 1 when one is unset)
cat > "$work/rootfs/bin/printenv" <<'SCRIPT'
#!/bin/sh
[ $# -eq 0 ] && exec env
status=0
for name in "$@"; do
  case $name in
    [A-Za-z_]*) case $name in *[!A-Za-z0-9_]*) status=1; continue ;; esac ;;
    *) status=1; continue ;;
  esac
  if eval "[ -n \"\${$name+set}\" ]"; then eval "printf '%s\\n' \"\$$name\""; else status=1; fi
done
exit $status
SCRIPT
chmod 755 "$work/rootfs/bin/printenv"
tar -C "$work/rootfs" -cf "$work/rootfs.tar" .
podman import --quiet --change 'ENV PATH=/bin' --change 'WORKDIR /' \
  --change "LABEL gantry.test-image.revision=$revision" "$work/rootfs.tar" "$image" >/dev/null
echo "setup-podman: imported $image into $root" >&2
