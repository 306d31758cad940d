# Gantry job records, the part of the status command every scheduler shares (sourced text, not run on its own).
# A status command asks the scheduler FIRST (job_ids gives it the ids to ask about) and reads the records AFTER
# (job_records): a job that ends between the two then shows its exit record beside the scheduler's "ended".
# Read the other way round, a job that ended in between was ended for the scheduler but had no exit record yet, and
# its exit code was lost.

# job_ids WORKDIR ID_FILE JOB...: leaves in $ids the scheduler ids of the jobs that have one, each after a comma,
# and in $sids each job's id (- for none) on a line of its own, in the jobs' order, for job_records.
job_ids() {
  local wd=$1 id_file=$2 job sid
  shift 2
  ids= sids=
  for job in "$@"; do
    sid=
    [ -r "$wd/$job/$id_file" ] && read -r sid <"$wd/$job/$id_file"
    sid=${sid%%;*} # sbatch --parsable: ID or ID;CLUSTER
    [ -n "$sid" ] && ids=$ids,$sid
    sids="$sids${sid:--}
"
  done
}

# job_records WORKDIR JOB... (the jobs given to job_ids, in the same order): prints per job
#   J<TAB>id<TAB>scheduler id<TAB>started line<TAB>exit line<TAB>first failure line<TAB>cancelled line<TAB>unsatisfied
# ("-" in the first field after J when its directory does not exist). The scheduler id is the one job_ids read: an
# id that a submit recorded since was not asked about, so that job is reported as still being submitted. (Taking
# the ids from $sids, not reading each id file again, keeps a poll of 1,000 jobs within 10 ms of a single pass.)
job_records() {
  local wd=$1 job d sid started ended failure cancelled unsatisfied f rest=$sids
  shift
  for job in "$@"; do
    sid=${rest%%"
"*}
    rest=${rest#*"
"}
    [ "$sid" = - ] && sid=
    d=$wd/$job
    if [ ! -d "$d" ]; then
      printf 'J\t-\t%s\n' "$job"
      continue
    fi
    started= ended= failure= cancelled= unsatisfied=
    [ -r "$d/started" ] && read -r started <"$d/started"
    [ -r "$d/exit" ] && read -r ended <"$d/exit"
    [ -r "$d/cancelled" ] && read -r cancelled <"$d/cancelled"
    [ -r "$d/unsatisfied" ] && read -r unsatisfied <"$d/unsatisfied"
    for f in "$d"/failure-*; do
      [ -r "$f" ] && { read -r failure <"$f"; break; }
    done
    printf 'J\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$job" "$sid" "$started" "$ended" "$failure" "$cancelled" \
      "$unsatisfied"
  done
}
