# Gantry doctor: runs the host probe on compute nodes through Slurm, one srun per node, in one command on the login
# node. Arguments: $1 = the directory of Slurm's commands ("" or ending in /), $2 = the work directory, $3 = the
# partition ("" for every node, each probed in a partition it is in), $4 = the probe script.
# Prints, per node: =node NAME PARTITION, the probe's output, =status CODE; then =end.
set -u
bin=$1
wd=$2
partition=$3
probe=$4
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 150"
if [ -n "$partition" ]; then
  list=$("${bin}sinfo" -h -N -p "$partition" -o '%N %P' 2>&1) || { printf '=error %s\n' "$list"; echo =end; exit 0; }
else
  list=$("${bin}sinfo" -h -N -o '%N %P' 2>&1) || { printf '=error %s\n' "$list"; echo =end; exit 0; }
fi
# One line per node: in the default partition (sinfo marks it *) when the node is in it, else in its first one.
printf '%s\n' "$list" | awk 'NF == 2 { d = ($2 ~ /\*$/) ? 0 : 1; sub(/\*$/, "", $2); print $1, d, $2 }' \
  | sort -k1,1 -k2,2n | awk '!seen[$1]++ { print $1, $3 }' | while read -r node part; do
  echo "=node $node $part"
  # --immediate: a node busy with other jobs is reported as such instead of waited for.
  $limit "${bin}srun" --quiet --immediate=30 -N1 -n1 -w "$node" -p "$part" -J gantry-doctor \
    sh -c "$probe" gantry-probe "$wd" </dev/null 2>&1
  echo "=status $?"
done
echo =end
