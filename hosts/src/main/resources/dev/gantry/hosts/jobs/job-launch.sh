# Prepares a job directory and, when asked, starts the job in it: one command on any host.
# Arguments: directory, record text, placement line or "", start (1) or prepare only (0), launch directory or ""
# (the home directory), a directory that must exist or "", bytes of the environment file on stdin, name of a
# private file or "", its bytes on stdin (after the environment), the launch time, how many looks (20 ms apart
# after the first 2000) to take for the job's new session, how to start a new session (setsid, perl, or "" for
# whichever the host has); then the wrapper's argv.
dir=$1 record=$2 placement=$3 start=$4 cwd=$5 need=$6 envbytes=$7 private=$8 privatebytes=$9
shift 9
at=$1 waits=$2 leader=$3
shift 3
# Before anything is written: a job whose directory is missing is refused whole.
if [ -n "$need" ] && [ ! -d "$need" ]; then echo "MISSING_DIRECTORY"; exit 0; fi
# Each external command is a fork and an exec (milliseconds on a small VM): the script runs as few as it can.
# A new job's directory is made whole under a hidden name (records, and its launch lock when it starts) and renamed
# into place, so that every reader sees all of it or nothing, in two commands. A directory that exists (a retry, or
# a concurrent submit that renamed its own first) keeps the records the first attempt wrote.
lock=$dir/launch.lock held=0
if [ ! -d "$dir" ]; then
  stage=${dir%/*}/.new-${dir##*/}.$$
  if [ "$start" = 1 ]; then mkdir -p -- "$stage/launch.lock" || exit 70; else mkdir -p -- "$stage" || exit 70; fi
  printf '%s' "$record" > "$stage/job.json" || exit 70
  [ -z "$placement" ] || printf '%s\n' "$placement" > "$stage/placement" || exit 70
  if mv -- "$stage" "$dir" 2>/dev/null && [ ! -e "$dir/${stage##*/}" ]; then
    held=$start
  else
    rm -rf -- "$stage" "$dir/${stage##*/}"
  fi
fi
[ -d "$dir" ] || { echo "cannot create $dir" >&2; exit 70; }
if [ "$held" = 0 ]; then
  if [ ! -e "$dir/job.json" ]; then
    printf '%s' "$record" > "$dir/job.json.tmp.$$" && mv -f "$dir/job.json.tmp.$$" "$dir/job.json" || exit 70
  fi
  if [ -n "$placement" ] && [ ! -e "$dir/placement" ]; then
    printf '%s\n' "$placement" > "$dir/placement.tmp.$$" && mv -f "$dir/placement.tmp.$$" "$dir/placement" \
      || exit 70
  fi
fi
[ "$start" = 1 ] || { echo PREPARED; exit 0; }
# Launched by an earlier or concurrent submit, or cancelled before it started: nothing new starts. Looked at before
# the lock (a retry of a launched job need not wait for it) and again under it.
if [ "$held" = 0 ]; then
  for f in launched pid exit cancelled preempted; do
    [ -e "$dir/$f" ] && { echo ALREADY; exit 0; }
  done
fi
# mkdir is atomic on every file system. A lock older than a minute belongs to a launch that died holding it (one
# holds it well under a second) and is taken over.
i=0
while [ "$held" = 0 ] && ! mkdir -- "$lock" 2>/dev/null; do
  if [ -n "$(find "$lock" -maxdepth 0 -mmin +1 2>/dev/null)" ]; then rmdir -- "$lock" 2>/dev/null || exit 73; continue; fi
  i=$((i + 1)); [ "$i" -gt 200 ] && { echo "another launch of $dir holds $lock" >&2; exit 74; }
  sleep 0.1
done
trap 'rmdir -- "$lock" 2>/dev/null' EXIT
# Launched by an earlier or concurrent submit, or cancelled before it started: nothing new starts.
for f in launched pid exit cancelled preempted; do
  [ -e "$dir/$f" ] && { echo ALREADY; exit 0; }
done
# Created under umask 077, so never readable by others (a file left by a launch that died was created so too);
# nothing reads them before the job starts, so they are written in place.
envfile=$dir/env
# The umask to give back, read without a command substitution (a fork) where Linux shows it.
old=
while read -r key value; do [ "$key" = Umask: ] && { old=$value; break; }; done < /proc/$$/status 2>/dev/null
[ -n "$old" ] || old=$(umask)
umask 077
if [ -n "$private" ]; then
  head -c "$envbytes" > "$envfile" || exit 70
  head -c "$privatebytes" > "$dir/$private" || exit 70
else
  # All of stdin, line by line with the shell's own read: every line ends with a newline.
  while IFS= read -r line; do printf '%s\n' "$line"; done > "$envfile" || exit 70
fi
umask "$old"
forget() { rm -f -- "$envfile"; [ -z "$private" ] || rm -f -- "$dir/$private"; }
[ -n "$cwd" ] || cwd=$HOME
if ! cd -- "$cwd" 2>/dev/null; then forget; echo "cannot enter $cwd" >&2; exit 71; fi
# The loader sources the environment file and deletes it before anything else runs, so values never appear on a
# command line.
load='f=$1; shift; set -a; . "$f"; set +a; rm -f "$f"; exec "$@"'
log=$dir/launch.log
[ -n "$leader" ] || { command -v setsid >/dev/null 2>&1 && leader=setsid; }
[ -n "$leader" ] || { command -v perl >/dev/null 2>&1 && leader=perl; }
if [ "$leader" = setsid ]; then
  setsid sh -c "$load" gantry-env "$envfile" "$@" </dev/null >>"$log" 2>&1 &
elif [ "$leader" = perl ]; then
  perl -MPOSIX -e 'POSIX::setsid() or die "setsid: $!\n"; exec { $ARGV[0] } @ARGV or die "exec: $!\n"' \
    sh -c "$load" gantry-env "$envfile" "$@" </dev/null >>"$log" 2>&1 &
else
  forget; echo "the host needs setsid (util-linux) or perl to start detached jobs" >&2; exit 72
fi
pid=$!
printf '%s\n' "$at" > "$dir/launched" || exit 70
# Given back without waiting for rmdir to run: from here on every other launch of the job finds launched.
trap - EXIT
rmdir -- "$lock" </dev/null >/dev/null 2>&1 &
# Return only once the child leads its own session: a channel torn down before that (a dropped connection, a
# killed client) must not take the job with it. That takes a few milliseconds, so the first looks come without a
# pause. A child gone without a pid file could not start; one gone with it ran and ended already (the wrapper
# writes pid too).
i=0
while [ "$i" -lt "$waits" ]; do
  if read -r st < "/proc/$pid/stat" 2>/dev/null; then
    set -- ${st##*) }
    if [ "$4" = "$pid" ]; then
      # It leads its session, whose id is its pid, which every exec after this keeps: record what the wrapper
      # records first thing (pgid, then pid), so that the job is RUNNING when the submit returns.
      printf '%s\n' "$pid" > "$dir/pgid" && printf '%s\n' "$pid" > "$dir/pid" || exit 70
      echo STARTED; exit 0
    fi
  elif [ -e "$dir/pid" ]; then
    echo STARTED; exit 0
  else
    break
  fi
  i=$((i + 1))
  [ "$i" -gt 2000 ] && sleep 0.02
done
echo NOT_STARTED
cat -- "$log" 2>/dev/null
exit 0
