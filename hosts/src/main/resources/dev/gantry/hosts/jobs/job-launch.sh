# Prepares a job directory and, when asked, starts the job in it: one command on any host.
# Arguments: directory, record text, placement line or "", start (1) or prepare only (0), launch directory or ""
# (the home directory), a directory that must exist or "", bytes of the environment file on stdin, name of a
# private file or "", its bytes on stdin (after the environment), the launch time, how many looks 20 ms apart to
# take for the job's pid, how to start a new session (setsid, perl, or "" for whichever the host has); then the
# wrapper's argv.
dir=$1 record=$2 placement=$3 start=$4 cwd=$5 need=$6 envbytes=$7 private=$8 privatebytes=$9
shift 9
at=$1 waits=$2 leader=$3
shift 3
# Before anything is written: a job whose directory is missing is refused whole.
if [ -n "$need" ] && [ ! -d "$need" ]; then echo "MISSING_DIRECTORY"; exit 0; fi
# Each external command is a fork and an exec (milliseconds on a small VM): the script runs as few as it can.
parent=${dir%/*}
[ -z "$parent" ] || [ -d "$parent" ] || mkdir -p -- "$parent" || exit 70
mkdir -- "$dir" 2>/dev/null || [ -d "$dir" ] || { echo "cannot create $dir" >&2; exit 70; }
# Records stay as the first attempt wrote them; each appears whole or not at all.
if [ ! -e "$dir/job.json" ]; then
  printf '%s' "$record" > "$dir/job.json.tmp.$$" && mv -f "$dir/job.json.tmp.$$" "$dir/job.json" || exit 70
fi
if [ -n "$placement" ] && [ ! -e "$dir/placement" ]; then
  printf '%s\n' "$placement" > "$dir/placement.tmp.$$" && mv -f "$dir/placement.tmp.$$" "$dir/placement" || exit 70
fi
[ "$start" = 1 ] || { echo PREPARED; exit 0; }
# mkdir is atomic on every file system. A lock older than a minute belongs to a launch that died holding it (one
# holds it well under a second) and is taken over.
lock=$dir/launch.lock i=0
while ! mkdir -- "$lock" 2>/dev/null; do
  if [ -n "$(find "$lock" -maxdepth 0 -mmin +1 2>/dev/null)" ]; then rmdir -- "$lock" 2>/dev/null || exit 73; continue; fi
  i=$((i + 1)); [ "$i" -gt 200 ] && { echo "another launch of $dir holds $lock" >&2; exit 74; }
  sleep 0.1
done
trap 'rmdir -- "$lock" 2>/dev/null' EXIT
# Launched by an earlier or concurrent submit, or cancelled before it started: nothing new starts.
for f in launched pid exit cancelled preempted; do
  [ -e "$dir/$f" ] && { echo ALREADY; exit 0; }
done
# Created under umask 077, so never readable by others; nothing reads them before the job starts, so they are
# written in place.
envfile=$dir/env
old=$(umask)
umask 077
rm -f -- "$envfile"
head -c "$envbytes" > "$envfile" || exit 70
if [ -n "$private" ]; then
  rm -f -- "$dir/$private"
  head -c "$privatebytes" > "$dir/$private" || exit 70
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
rmdir -- "$lock" 2>/dev/null
trap - EXIT
# Go on only once the wrapper has recorded its pid, which it does inside the new session: a channel torn down
# before that (a dropped connection, a killed client) must not take the job with it. Waiting here rather than in
# one command per look also catches a job that cannot start: its launcher ends without a pid file.
i=0
while [ ! -e "$dir/pid" ] && [ "$i" -lt "$waits" ] && kill -0 "$pid" 2>/dev/null; do i=$((i + 1)); sleep 0.02; done
[ -e "$dir/pid" ] && { echo STARTED; exit 0; }
echo NOT_STARTED
cat -- "$log" 2>/dev/null
exit 0
