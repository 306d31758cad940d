# Gantry cluster probe on Grid Engine: what validate needs to know about the cluster, in one command on the login
# node. Arguments: $1 = the work directory, $2 = the directory of Grid Engine's commands ("" or ending in /), then
# the parallel environments the settings name, whose allocation rule and control of slave tasks it reports.
set -u
wd=$1
bin=$2
shift 2
echo "=queues"
"${bin}qconf" -sql 2>&1
echo "=queues-status $?"
echo "=pes"
"${bin}qconf" -spl 2>/dev/null
echo "=pe-rules"
for pe in "$@"; do
  "${bin}qconf" -sp "$pe" 2>/dev/null | awk -v pe="$pe" '$1 == "allocation_rule" { rule = $2 }
    $1 == "control_slaves" { control = $2 } END { if (rule != "") print pe, rule, control }'
done
echo "=complexes"
"${bin}qconf" -sc 2>/dev/null | awk '$1 !~ /^#/ { print $1 }'
echo "=hosts"
"${bin}qconf" -sel 2>/dev/null
echo "=workdir"
mkdir -p -- "$wd" 2>/dev/null
if [ -d "$wd" ] && [ -w "$wd" ]; then echo writable; else echo not-writable; fi
echo "=end"
