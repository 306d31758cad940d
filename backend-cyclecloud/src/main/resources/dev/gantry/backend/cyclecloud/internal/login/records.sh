# Gantry job records, the part of the status command every scheduler shares (sourced text, not run on its own).
# A status command asks the scheduler FIRST (job_ids gives it the ids to ask about) and reads the records AFTER
# (job_records): a job that ends between the two then shows its exit record beside the scheduler's "ended".
# Read the other way round, a job that ended in between was ended for the scheduler but had no exit record yet, and
# its exit code was lost.

# job_ids WORKDIR ID_FILE JOB...: leaves in $ids the scheduler ids of the jobs that have one, each after a comma.
job_ids() {
  local wd=$1 id_file=$2 job sid
  shift 2
  ids=
  for job in "$@"; do
    sid=
    [ -r "$wd/$job/$id_file" ] && read -r sid <"$wd/$job/$id_file"
    sid=${sid%%;*} # sbatch --parsable: ID or ID;CLUSTER
    [ -n "$sid" ] && ids=$ids,$sid
  done
}

# job_records WORKDIR ID_FILE JOB...: prints per job
#   J<TAB>id<TAB>scheduler id<TAB>started line<TAB>exit line<TAB>first failure line<TAB>cancelled line<TAB>unsatisfied
# ("-" in the first field after J when its directory does not exist). A scheduler id that job_ids did not see (its
# submit recorded it since) is left out: the scheduler was not asked about it, so the job is still being submitted.
job_records() {
  local wd=$1 id_file=$2 job d sid started ended failure cancelled unsatisfied f
  shift 2
  for job in "$@"; do
    d=$wd/$job
    if [ ! -d "$d" ]; then
      printf 'J\t-\t%s\n' "$job"
      continue
    fi
    sid= started= ended= failure= cancelled= unsatisfied=
    [ -r "$d/$id_file" ] && read -r sid <"$d/$id_file"
    sid=${sid%%;*} # sbatch --parsable: ID or ID;CLUSTER
    [ -r "$d/started" ] && read -r started <"$d/started"
    [ -r "$d/exit" ] && read -r ended <"$d/exit"
    [ -r "$d/cancelled" ] && read -r cancelled <"$d/cancelled"
    [ -r "$d/unsatisfied" ] && read -r unsatisfied <"$d/unsatisfied"
    for f in "$d"/failure-*; do
      [ -r "$f" ] && { read -r failure <"$f"; break; }
    done
    case "$ids," in
      *",$sid,"*) ;;
      *) sid= ;;
    esac
    printf 'J\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$job" "$sid" "$started" "$ended" "$failure" "$cancelled" \
      "$unsatisfied"
  done
}
