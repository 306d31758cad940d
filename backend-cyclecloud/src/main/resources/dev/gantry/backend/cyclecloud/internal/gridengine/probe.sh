# Gantry cluster probe on Grid Engine: what validate needs to know about the cluster, in one command on the login
# node. Arguments: $1 = the work directory, $2 = the directory of Grid Engine's commands ("" or ending in /).
set -u
wd=$1
bin=$2
echo "=queues"
"${bin}qconf" -sql 2>&1
echo "=queues-status $?"
echo "=pes"
"${bin}qconf" -spl 2>/dev/null
echo "=complexes"
"${bin}qconf" -sc 2>/dev/null | awk '$1 !~ /^#/ { print $1 }'
echo "=hosts"
"${bin}qconf" -sel 2>/dev/null
echo "=workdir"
mkdir -p -- "$wd" 2>/dev/null
if [ -d "$wd" ] && [ -w "$wd" ]; then echo writable; else echo not-writable; fi
echo "=end"
