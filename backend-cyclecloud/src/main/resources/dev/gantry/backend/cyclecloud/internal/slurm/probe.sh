# Gantry cluster probe: what validate needs to know about the cluster, in one command on the login node.
# Arguments: $1 = the work directory, $2 = the directory of Slurm's commands ("" or ending in /).
set -u
wd=$1
bin=$2
echo "=sinfo"
"${bin}sinfo" -h -o '%P|%a|%D|%c|%m|%G|%N' 2>&1
echo "=sinfo-status $?"
echo "=pyxis"
if "${bin}srun" --help 2>/dev/null | grep -- '--container-image' >/dev/null; then echo yes; else echo no; fi
echo "=workdir"
mkdir -p -- "$wd" 2>/dev/null
if [ -d "$wd" ] && [ -w "$wd" ]; then echo writable; else echo not-writable; fi
echo "=config"
"${bin}scontrol" show config 2>/dev/null | grep -E '^(GresTypes|SelectType|MinJobAge|JobCompType|JobCompLoc|MaxArraySize|SLURM_VERSION) '
echo "=end"
