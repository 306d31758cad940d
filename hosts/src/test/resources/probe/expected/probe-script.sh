# Gantry host probe: prints one delimited section per probe, each with its exit status.
# Arguments: $1 = the work directory whose free space is measured.
LC_ALL=C
export LC_ALL
workdir=${1:-$HOME}
begin() { printf '%s\n' "===gantry-probe:$1==="; }
end() { printf '\n%s\n' "===gantry-probe-end:$1:$2==="; }
# probe NAME COMMAND ARGS...: run COMMAND with a time limit; status 127 when it is not installed.
probe() {
  name=$1
  shift
  begin "$name"
  if command -v "$1" >/dev/null 2>&1; then
    # stdin from /dev/null: when the script itself arrives on stdin (sh -s), no probe may eat it.
    if command -v timeout >/dev/null 2>&1; then
      timeout 30 "$@" </dev/null 2>&1
    else
      "$@" </dev/null 2>&1
    fi
    status=$?
  else
    printf '%s\n' "gantry-probe: $1: not installed"
    status=127
  fi
  end "$name" "$status"
}
# The nearest existing directory at or above the work directory (it may not exist before the first job).
existing_dir() {
  d=$1
  # A relative path gets ./ so that a name starting with '-' is never read as an option.
  case $d in /*) ;; *) d=./$d ;; esac
  while [ ! -d "$d" ] && [ "$d" != "/" ] && [ "$d" != "." ]; do
    d=$(dirname -- "$d")
  done
  printf '%s\n' "$d"
}
cdi_specs() {
  for d in /etc/cdi /var/run/cdi; do
    if [ -d "$d" ]; then
      for f in "$d"/*; do
        [ -e "$f" ] && printf '%s\n' "$f"
      done
    fi
  done
  return 0
}
begin os
if [ -r /etc/os-release ]; then
  cat /etc/os-release 2>&1
  status=$?
else
  echo "no /etc/os-release"
  status=1
fi
end os "$status"
probe kernel uname -srm
probe cpus nproc
begin meminfo
if [ -r /proc/meminfo ]; then
  cat /proc/meminfo 2>&1
  status=$?
else
  echo "no /proc/meminfo"
  status=1
fi
end meminfo "$status"
probe disk df -Pk "$(existing_dir "$workdir")"
probe nvidia-smi nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader,nounits
probe nvidia-smi-header nvidia-smi
probe rocm-smi rocm-smi --showproductname --showmeminfo vram --json
probe nvidia-ctk nvidia-ctk --version
begin cdi-specs
cdi_specs
end cdi-specs "$?"
probe docker-info docker info
probe podman-info podman info --format json
probe ibv_devinfo ibv_devinfo
begin ready-marker
if [ -f /var/lib/gantry/ready.json ]; then
  cat /var/lib/gantry/ready.json 2>&1
  status=$?
else
  echo "no marker"
  status=127
fi
end ready-marker "$status"
exit 0
