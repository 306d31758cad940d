# Gantry doctor on Grid Engine: runs the host probe on each execution host as a one-slot job (qsub -sync y -now y:
# a host with no free slot is reported as such instead of waited for), in one command on the login node.
# Arguments: $1 = the directory of Grid Engine's commands ("" or ending in /), $2 = the work directory, $3 = the
# queue ("" for the cluster's default), $4 = the probe script.
# Prints, per host: =node NAME QUEUE, the probe's output, =status CODE; then =end.
set -u
bin=$1
wd=$2
queue=$3
probe=$4
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 150"
hosts=$("${bin}qconf" -sel 2>&1) || { printf '=error %s\n' "$hosts" | tr '\n' ' '; echo; echo =end; exit 0; }
dir=$wd/.gantry-doctor.$$
mkdir -p -- "$dir" || { echo "=error cannot create $dir"; echo =end; exit 0; }
trap 'rm -rf -- "$dir"' EXIT
printf '%s' "$probe" >"$dir/probe.sh"
for host in $hosts; do
  echo "=node $host ${queue:-default}"
  if [ -n "$queue" ]; then where="$queue@$host"; else where="*@$host"; fi
  $limit "${bin}qsub" -sync y -now y -terse -N gantry-doctor -q "$where" -o "$dir/$host.out" -j y -S /bin/sh \
    -wd "$dir" "$dir/probe.sh" "$wd" >"$dir/$host.qsub" 2>&1 </dev/null
  code=$?
  if [ -r "$dir/$host.out" ]; then cat "$dir/$host.out"; else cat "$dir/$host.qsub"; fi
  echo "=status $code"
done
echo =end
