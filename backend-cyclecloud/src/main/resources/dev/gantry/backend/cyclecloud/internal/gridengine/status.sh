# Gantry status on Grid Engine: what ONE qstat and then the job directories (job_records, login/records.sh, above)
# say about the given jobs, and qacct for those that ended without an exit record (killed, or their host lost).
# qstat first, so that a job that left the queue shows the exit record its script wrote.
# Arguments: $1 = the work directory, $2 = the directory of Grid Engine's commands ("" or ending in /), then
# Gantry's job ids.
# Prints, per job, its J line (login/records.sh); then =qstat, qstat's XML and =end-qstat; then, per job that
# qstat does not list and that has no exit record, its accounting as A<TAB>job number<TAB>line (kept in the job's
# directory once found: qacct reads the whole accounting file). When qstat itself fails (the qmaster is down), one
# E<TAB>message line instead.
set -u
wd=$1
bin=$2
shift 2
job_ids "$wd" ge-id "$@"
if [ -z "$ids" ]; then
  job_records "$wd" "$@"
  exit 0
fi
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 20"
# All of this user's jobs, pending and running, in one call; the ones asked for are picked out by number.
listed=$($limit "${bin}qstat" -xml -u "$(id -un)" 2>"$wd/.qstat.err.$$")
status=$?
error=$(cat "$wd/.qstat.err.$$" 2>/dev/null)
rm -f "$wd/.qstat.err.$$"
job_records "$wd" "$@"
if [ "$status" -ne 0 ]; then
  printf 'E\t%s\n' "qstat failed (exit $status): $(printf '%s' "$error" | tr '\n\t' '  ')"
  exit 0
fi
printf '=qstat\n%s\n=end-qstat\n' "$listed"
numbers=" $(printf '%s\n' "$listed" | sed -n 's/.*<JB_job_number>\([0-9]*\)<.*/\1/p' | tr '\n' ' ') "
for job in "$@"; do
  d=$wd/$job
  [ -d "$d" ] && [ -r "$d/ge-id" ] && [ ! -e "$d/exit" ] || continue
  read -r sid <"$d/ge-id"
  case $numbers in
    *" $sid "*) continue ;;
  esac
  if [ ! -s "$d/accounting" ]; then
    # qacct prints times in the C locale's words, which the parser reads.
    record=$(LC_ALL=C $limit "${bin}qacct" -j "$sid" 2>/dev/null) || continue
    printf '%s\n' "$record" >"$d/.accounting" && mv -f "$d/.accounting" "$d/accounting"
    # It ended for good without its script's own end: its environment file goes now.
    rm -f "$d/env"
  fi
  while IFS= read -r line; do
    printf 'A\t%s\t%s\n' "$sid" "$line"
  done <"$d/accounting"
done
