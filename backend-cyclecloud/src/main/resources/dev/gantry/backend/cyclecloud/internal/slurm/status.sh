# Gantry status on Slurm: what ONE squeue and then the job directories (job_records, login/records.sh, above) say
# about the given jobs: squeue first, so that a job squeue calls ended shows the exit record its script wrote.
# Arguments: $1 = the work directory, $2 = the directory of Slurm's commands ("" or ending in /), $3 = Slurm's job
# completion log ("" when not configured), then Gantry's job ids.
# Prints, per job, its J line (login/records.sh); then squeue's lines as Q<TAB>line; then, for
# ids squeue no longer lists, their last completion log line as C<TAB>line. When squeue itself fails (the controller
# is down), one E<TAB>message line instead of the Q and C lines.
set -u
wd=$1
bin=$2
jobcomp=$3
shift 3
job_ids "$wd" slurm-id "$@"
if [ -z "$ids" ]; then
  job_records "$wd" "$@"
  exit 0
fi
# squeue waits a long time for a controller that is down: bounded, so the poll answers (with the error) instead.
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 20"
# JobArrayID is a job's id as Gantry records it: ID, or ARRAY_TASK for a task of a job array (-r: one line each).
listed=$(TZ=UTC $limit "${bin}squeue" -h -r -t all -j "${ids#,}" \
  -O 'JobArrayID:|,State:|,Reason:|,RestartCnt:|,StartTime:|,EndTime:|,Comment:|' 2>"$wd/.squeue.err.$$")
status=$?
error=$(cat "$wd/.squeue.err.$$" 2>/dev/null)
rm -f "$wd/.squeue.err.$$"
job_records "$wd" "$@"
# Every id unknown to Slurm (all past MinJobAge) is an answer, not a failure.
case $error in
  *"Invalid job id"*) status=0 ;;
esac
if [ "$status" -ne 0 ]; then
  printf 'E\t%s\n' "squeue failed (exit $status): $(printf '%s' "$error" | tr '\n\t' '  ')"
  exit 0
fi
printf '%s\n' "$listed" | while IFS= read -r line; do
  [ -n "$line" ] && printf 'Q\t%s\n' "$line"
done
[ -n "$jobcomp" ] && [ -r "$jobcomp" ] || exit 0
# Jobs Slurm forgot (MinJobAge): their last line in the completion log, in one pass over it.
listed_ids=" $(printf '%s\n' "$listed" | cut -d'|' -f1 | tr '\n' ' ') "
missing=
for sid in $(printf '%s\n' "${ids#,}" | tr ',' ' '); do
  case $listed_ids in
    *" $sid "*) ;;
    *) missing="$missing $sid" ;;
  esac
done
[ -n "$missing" ] || exit 0
# A task of an array is ARRAY_TASK there too, from its ArrayJobId and ArrayTaskId.
awk -v ids="$missing" 'BEGIN { n = split(ids, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
  {
    id = substr($1, 7)
    if (index($0, " ArrayJobId=")) {
      array = ""; task = ""
      for (i = 2; i <= NF; i++) {
        if ($i ~ /^ArrayJobId=/) array = substr($i, 12)
        else if ($i ~ /^ArrayTaskId=/) task = substr($i, 13)
      }
      if (array != "" && task != "") id = array "_" task
    }
    if (id in want) last[id] = $0
  }
  END { for (k in last) print "C\t" last[k] }' "$jobcomp"
