# Gantry submit, the part every scheduler shares (bash; the scheduler's own lines above define id_file, the record
# of the scheduler's job id in a job's directory, submit_command, the command and options that submit a batch script
# named after them and print the job id on stdout (nothing when they fail), and scheduler_find NAME, which prints the
# id of a job of that name the scheduler still knows, if any; a scheduler with job arrays also defines
# scheduler_submit_array NAME INDICES SCRIPT, which submits the tasks INDICES (N,M,...) of the array script SCRIPT as
# one array job named NAME and prints its id, scheduler_find_array NAME, which prints the id of the array of that
# name, and task_id ARRAY INDEX, which sets $task to the scheduler's id of one task).
# For each job, claims its directory on the cluster, then submits its batch script exactly once.
# Arguments: $1 = the directory of the scheduler's commands ("" or ending in /), $2 = the size in bytes of the part
# every job's batch script shares, $3 = the size in bytes of the array script (0: one submit per job), then per job
# five: its directory, its name in the scheduler, and the sizes in bytes of its environment file, of its script's
# own head and of its script's own tail. Stdin: the shared part, the array script, then per job its environment
# file, head and tail; a job's script is its head, the shared part and its tail. With an array script, job N (from
# 0) is the array's task N: the jobs this command claims go in one array submit, named after the first of them.
# Prints one line per job, in order: SUBMITTED ID, ADOPTED ID (an earlier submit made it), BUSY (an earlier submit
# is still at it), CANCELLED (cancelled before it was submitted), FORGOTTEN (the job ran, and the scheduler no
# longer knows its id), NO_WORKDIR, NO_DEPENDENCY ID (a job it depends on has no scheduler id recorded), or FAILED
# and the scheduler's message.
# A fan-out of many jobs is one command, and each job one process at most: its submit command (an array, one for
# all). Apart from one mkdir for all of them, everything else is a bash builtin; only a key claimed before (a retry)
# takes a subshell of its own.
set -u
export LC_ALL=C # bytes, not characters, for read -N
bin=$1
common_bytes=$2
array_bytes=$3
shift 3
# A cut connection must not stop a submit halfway: what the scheduler answers is recorded whatever happens to the caller.
trap '' HUP PIPE
# Every file a job directory holds is its owner's alone: the environment file holds secrets.
umask 077
# Files are created, never overwritten, unless written with >| on purpose: the claim depends on it.
set -C
# Whether the submit holding a claim still runs.
holder_alive() {
  local holder=
  [ -r "$1/claim" ] && read -r holder <"$1/claim"
  [ -n "$holder" ] && kill -0 "$holder" 2>/dev/null
}
# take BYTES: exactly that many bytes of stdin into $taken (the next job's stay for it).
take() {
  taken=
  [ "$1" -gt 0 ] || return 0
  IFS= read -r -d '' -N "$1" taken
  [ "${#taken}" -eq "$1" ]
}
# read_job ENV_BYTES HEAD_BYTES TAIL_BYTES: the next job's environment into $env, its script into $script.
read_job() {
  take "$1" || return 1
  env=$taken
  take "$2" || return 1
  script=$taken$common
  take "$3" || return 1
  script=$script$taken
}
# submit_one DIR NAME N: claims job N and submits $script with $env; prints the job's answer line. The first try
# of a key takes the fast path of the loop below; this is the whole protocol, for a key claimed before.
submit_one() {
  local dir=$1 name=$2 id= errors=$errors.retry.$3
  [ -d "$dir" ] || { echo NO_WORKDIR; return; }
  # The claim: a file created only if it does not exist yet (noclobber, O_EXCL), once per key, ever.
  if ! { echo $$ >"$dir/claim"; } 2>/dev/null; then
    local n=0
    while [ ! -s "$dir/$id_file" ] && [ "$n" -lt 100 ] && holder_alive "$dir"; do
      sleep 0.1
      n=$((n + 1))
    done
    if [ -s "$dir/$id_file" ]; then
      read -r id <"$dir/$id_file"
      echo "ADOPTED ${id%%;*}"
      return
    fi
    holder_alive "$dir" && { echo BUSY; return; }
    # The claim's holder died without recording an id. Its submit may have reached the scheduler: ask by the job's
    # name, which is its key's alone, or by its array's.
    found "$dir" "$name"
    if [ -n "$id" ]; then
      printf '%s\n' "$id" >|"$dir/$id_file"
      echo "ADOPTED $id"
      return
    fi
    [ -e "$dir/started" ] && { echo FORGOTTEN; return; }
    [ -e "$dir/cancelled" ] && { echo CANCELLED; return; }
    # Its submit never reached the scheduler: this submit takes the claim over, and submits the job on its own.
    echo $$ >|"$dir/claim"
    rm -f -- "$dir/array"
  fi
  prepare "$dir" || { echo "$result"; return; }
  # The scheduler's answer goes straight into the record that a retry adopts.
  "${submit_argv[@]}" "$dir/job.sh" >|"$dir/$id_file" 2>|"$errors" </dev/null
  submitted "$dir" "$errors"
  echo "$result"
}
# found DIR NAME: the scheduler's id of the job a dead holder of DIR's claim submitted, in $id; empty if none. A job
# that went as an array task has its array's name and its index in DIR/array, and the array's id is recorded in
# the arrays directory once the scheduler answered.
found() {
  local array= index=
  id=
  if [ -r "$1/array" ]; then
    read -r array index <"$1/array"
    [ -r "$arrays/$array.id" ] && read -r id <"$arrays/$array.id"
    [ -n "$id" ] || id=$(scheduler_find_array "$array" 2>/dev/null)
    id=${id%%$'\n'*}
    id=${id%%;*}
    [ -z "$id" ] || { task_id "$id" "$index"; id=$task; }
  else
    id=$(scheduler_find "$2" 2>/dev/null)
    id=${id%%$'\n'*}
  fi
}
# recorded_ids: puts in $script, for each {recorded-id:ID} in it (a dependency, written so by Gantry), the scheduler's
# id recorded in the directory of job ID beside this one ($wd/ID/$id_file), all builtins: the ids a dependent needs
# are read in the same command as its submit. Fails with NO_DEPENDENCY ID in $result when one has no id recorded.
recorded_ids() {
  local rest=$script resolved= dependency id
  while [[ $rest == *'{recorded-id:'* ]]; do
    resolved=$resolved${rest%%'{recorded-id:'*}
    rest=${rest#*'{recorded-id:'}
    dependency=${rest%%'}'*}
    rest=${rest#*'}'}
    id=
    [ -r "$wd/$dependency/$id_file" ] && read -r id <"$wd/$dependency/$id_file"
    id=${id%%;*}
    if [ -z "$id" ]; then
      result="NO_DEPENDENCY $dependency"
      return 1
    fi
    resolved=$resolved$id
  done
  script=$resolved$rest
}
# prepare DIR: writes a claimed job's environment file and script, all builtins. Fails with the job's answer in
# $result when it cannot, when a dependency has no id recorded (the claim is given up: the key is free again), or
# when a cancel came while this submit was on its way: the cancel wins, nothing is submitted.
prepare() {
  if ! recorded_ids; then
    rm -rf -- "$1"
    return 1
  fi
  if ! printf '%s' "$env" >|"$1/env"; then
    result="FAILED cannot write $1/env"
    return 1
  fi
  if ! printf '%s' "$script" >|"$1/job.sh"; then
    result="FAILED cannot write $1/job.sh"
    return 1
  fi
  unless_cancelled "$1"
}
# unless_cancelled DIR: fails with CANCELLED in $result when a cancel came for the job before its submit.
unless_cancelled() {
  if [ -e "$1/cancelled" ]; then
    rm -f -- "$1/env"
    result=CANCELLED
    return 1
  fi
}
# submitted DIR ERRORS: the answer of a finished submit into $result, from the id it recorded. A job whose id was
# printed exists, whatever the command's exit status; without one nothing was submitted, and the key is free again
# for a corrected retry.
submitted() {
  local id= message
  [ -r "$1/$id_file" ] && read -r id <"$1/$id_file"
  if [ -n "$id" ]; then
    result="SUBMITTED ${id%%;*}"
    return
  fi
  message=$(<"$2")
  rm -rf -- "$1"
  message=${message//$'\n'/ }
  result="FAILED ${message//$'\r'/}"
}
# Stdin into a file first, in one go: bash's read takes a pipe a byte at a time, but a file in blocks.
wd=
if [ "$#" -ge 5 ]; then
  wd=${1%/*}
  [ -d "$wd" ] || mkdir -p -- "$wd" 2>/dev/null
  spool=$wd/.submit.$$
  if cat >|"$spool" 2>/dev/null; then
    exec <"$spool"
    rm -f -- "$spool"
  fi
fi
# The scheduler's complaints, read only when it fails; one file per job, all removed at the end.
errors=${wd:-/tmp}/.submit-errors.$$
# Arrays keep their scripts, their ids and the scheduler's own output of their tasks here (made for an array only).
arrays=${wd:-/tmp}/arrays
# Every job's directory in one process: what claims a job is its claim file, not its directory.
dirs=()
[ "$array_bytes" -gt 0 ] && dirs+=("$arrays")
for ((i = 1; i <= $#; i += 5)); do
  dirs+=("${!i}")
done
((${#dirs[@]})) && mkdir -p -- "${dirs[@]}" 2>/dev/null
if ! take "$common_bytes" || { common=$taken; ! take "$array_bytes"; }; then
  for ((i = 1; i <= $#; i += 5)); do echo "FAILED the scripts' shared part arrived short"; done
  exit 0
fi
array_script=$taken
# A few submits at a time: each one mostly waits for the scheduler's answer, which the controller gives to several
# at once. Stdin is read here, in order. A key's first claim, its files and the check for a cancel are builtins in
# this shell, and its submit command the one process it starts; a key claimed before runs the whole protocol in a
# subshell, which writes its answer to a file. Jobs finish in order, so that job N's submit can reuse the error
# file of job N - in_flight (created once, not once per job), and the answers are printed in order at the end.
submit_argv=("$bin${submit_command[0]}" "${submit_command[@]:1}")
answers=${wd:-/tmp}/.submit-answers.$$
trap 'rm -f -- "$errors".* "$answers".*' EXIT
in_flight=4
n=0
done_to=0
answer=()
dir_of=()
name_of=()
pid=()
retried=()
members=()
# finish_to K: waits for the submits of jobs up to K, in order, and records their answers.
finish_to() {
  local k line
  while [ "$done_to" -lt "$1" ]; do
    k=$((done_to + 1))
    done_to=$k
    [ -n "${pid[k]:-}" ] || continue
    wait "${pid[k]}" # its exit status is not the answer: the id it recorded is
    if [ -n "${retried[k]:-}" ]; then
      line="FAILED the submit of ${dir_of[k]} gave no answer"
      [ -r "$answers.$k" ] && IFS= read -r line <"$answers.$k"
      answer[k]=$line
    else
      submitted "${dir_of[k]}" "$errors.$((k % in_flight))"
      answer[k]=$result
    fi
  done
}
# submit_array: the jobs this command claimed for the array, in one submit of their tasks; each one's id is the
# array's task, recorded in its directory. A lone claimed job goes on its own.
submit_array() {
  local k name= list= id= claimed=() message
  for k in "${members[@]}"; do
    # A cancel that came while the others were prepared still wins.
    unless_cancelled "${dir_of[k]}" || { answer[k]=$result; continue; }
    claimed+=("$k")
  done
  ((${#claimed[@]})) || return 0
  if [ "${#claimed[@]}" -eq 1 ]; then
    k=${claimed[0]}
    "${submit_argv[@]}" "${dir_of[k]}/job.sh" >|"${dir_of[k]}/$id_file" 2>|"$errors.array" </dev/null
    submitted "${dir_of[k]}" "$errors.array"
    answer[k]=$result
    return
  fi
  # Named after its first claimed job's key, claimed by this command only, ever: a retry can find it by name.
  name=${name_of[${claimed[0]}]}+array
  for k in "${claimed[@]}"; do
    printf '%s %s\n' "$name" "$((k - 1))" >|"${dir_of[k]}/array"
    list=$list,$((k - 1))
  done
  if ! printf '%s' "$array_script" >|"$arrays/$name.sh"; then
    for k in "${claimed[@]}"; do answer[k]="FAILED cannot write $arrays/$name.sh"; rm -rf -- "${dir_of[k]}"; done
    return
  fi
  scheduler_submit_array "$name" "${list#,}" "$arrays/$name.sh" >|"$arrays/$name.id" 2>|"$errors.array" </dev/null
  [ -r "$arrays/$name.id" ] && read -r id <"$arrays/$name.id"
  id=${id%%;*}
  if [ -z "$id" ]; then
    message=$(<"$errors.array")
    message=${message//$'\n'/ }
    for k in "${claimed[@]}"; do
      answer[k]="FAILED ${message//$'\r'/}"
      rm -rf -- "${dir_of[k]}"
    done
    return
  fi
  for k in "${claimed[@]}"; do
    # Each task's id, recorded where status, cancel and a retry read it.
    task_id "$id" "$((k - 1))"
    printf '%s\n' "$task" >|"${dir_of[k]}/$id_file"
    answer[k]="SUBMITTED $task"
  done
}
while [ "$#" -ge 5 ]; do
  n=$((n + 1))
  dir_of[n]=$1
  name_of[n]=$2
  # At most in_flight submits run: the one of job n - in_flight has ended before job n's starts.
  finish_to $((n - in_flight))
  if ! read_job "$3" "$4" "$5"; then
    answer[n]="FAILED the environment or script of $2 arrived short"
  elif [ ! -d "$1" ]; then
    answer[n]=NO_WORKDIR
  elif { echo $$ >"$1/claim"; } 2>/dev/null; then
    # The claim is this submit's: nothing else can be at this key (noclobber, O_EXCL).
    if ! prepare "$1"; then
      answer[n]=$result
    elif [ -n "$array_script" ]; then
      members+=("$n")
    else
      # The scheduler's answer goes straight into the record that a retry adopts.
      "${submit_argv[@]}" "$1/job.sh" >|"$1/$id_file" 2>|"$errors.$((n % in_flight))" </dev/null &
      pid[n]=$!
    fi
  else
    submit_one "$1" "$2" "$n" >|"$answers.$n" &
    pid[n]=$!
    retried[n]=1
  fi
  shift 5
done
((${#members[@]})) && submit_array
finish_to "$n"
for ((i = 1; i <= n; i++)); do
  printf '%s\n' "${answer[i]}"
done
