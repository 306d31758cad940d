dir=$1
shift
mkdir "$dir/claimed" 2>/dev/null || exit 0
date -u +%Y-%m-%dT%H:%M:%SZ > "$dir/started.tmp" && mv -f "$dir/started.tmp" "$dir/started"
echo "$$" > "$dir/pgid.tmp" && mv -f "$dir/pgid.tmp" "$dir/pgid"
echo "$$" > "$dir/pid.tmp" && mv -f "$dir/pid.tmp" "$dir/pid"
if [ -e "$dir/cancelled" ] || [ -e "$dir/preempted" ]; then rm -f "$dir/container.env"; exit 0; fi
"$@" < /dev/null > "$dir/stdout" 2> "$dir/stderr"
code=$?
rm -f "$dir/container.env"
date -u +%Y-%m-%dT%H:%M:%SZ > "$dir/ended.tmp" && mv -f "$dir/ended.tmp" "$dir/ended"
echo "$code" > "$dir/exit.tmp" && mv -f "$dir/exit.tmp" "$dir/exit"
