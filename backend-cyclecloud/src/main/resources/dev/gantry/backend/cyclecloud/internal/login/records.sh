# Gantry job records, the part of the status command every scheduler shares (sourced text, not run on its own).
# job_records WORKDIR ID_FILE JOB...: prints per job
#   J<TAB>id<TAB>scheduler id<TAB>started line<TAB>exit line<TAB>first failure line<TAB>cancelled line<TAB>unsatisfied
# ("-" in the first field after J when its directory does not exist), and leaves the scheduler ids of those that
# have one in $ids, each after a comma.
job_records() {
  local wd=$1 id_file=$2 job d sid started ended failure cancelled unsatisfied f
  shift 2
  ids=
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
    printf 'J\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$job" "$sid" "$started" "$ended" "$failure" "$cancelled" \
      "$unsatisfied"
    [ -n "$sid" ] && ids=$ids,$sid
  done
}
