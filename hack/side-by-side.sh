#!/usr/bin/env bash
# side-by-side.sh compares two lscli binaries on one command, the way
# docs/performance.md measures a change: runs alternate between the two (this
# machine's speed drifts by 15% from hour to hour, so only runs taken
# together compare), each in a state folder of its own, and the outputs and
# saved states of the last pair must be byte-identical.
#
#   hack/side-by-side.sh [-n RUNS] [-s STATE] OLD NEW ARGS...
#
# ARGS is the lscli command line without --state.
# With -s STATE, each run starts from a copy of that state folder
# (a reconcile of a changed root, trigger, get); without it, from no state.
# It prints, per binary, the mean and best wall time, the mean CPU time (user
# + system) and the largest peak RSS, and exits 1 when the two differ in
# output, exit code or saved state.
#
#   go build -o /tmp/old . ; git stash; go build -o /tmp/new . ; git stash pop
#   go run ./internal/benchland/gen /tmp/land 1000 chained
#   hack/side-by-side.sh -n 5 /tmp/old /tmp/new reconcile /tmp/land -o json
set -euo pipefail

runs=3
state=""
while getopts "n:s:" opt; do
	case "$opt" in
	n) runs="$OPTARG" ;;
	s) state="$OPTARG" ;;
	*) echo "usage: $0 [-n RUNS] [-s STATE] OLD NEW ARGS..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
	echo "usage: $0 [-n RUNS] [-s STATE] OLD NEW ARGS..." >&2
	exit 2
fi
bins=("$1" "$2")
shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # run BIN TAG ARGS...: one run, its times appended to $work/TAG.times
	local bin="$1" tag="$2" dir="$work/$2"
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ -n "$state" ]; then
		cp -r "$state" "$dir/state"
	fi
	local rc=0
	/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$bin" "$@" --state "$dir/state" >"$dir/out" 2>"$dir/err" || rc=$?
	echo "$rc" >"$dir/rc"
	tail -n 1 "$dir/time" >>"$work/$tag.times" # the last line: time notes a failure on a line before
}

for _ in $(seq "$runs"); do
	run "${bins[0]}" old "$@"
	run "${bins[1]}" new "$@"
done

for tag in old new; do
	awk -v tag="$tag" '{w += $1; c += $2 + $3; if (NR == 1 || $1 < best) best = $1; if ($4 > rss) rss = $4}
		END {printf "%s: wall mean %.2f s, best %.2f s; cpu mean %.2f s; peak RSS %d MiB (%d runs)\n",
			tag, w / NR, best, c / NR, rss / 1024, NR}' "$work/$tag.times"
done

same=0
for f in rc out; do
	if ! cmp -s "$work/old/$f" "$work/new/$f"; then
		echo "the two differ in $f" >&2
		same=1
	fi
done
# Error messages may name the state folder, which differs between the two.
if ! cmp -s <(sed "s#$work/old#STATE#g" "$work/old/err") <(sed "s#$work/new#STATE#g" "$work/new/err"); then
	echo "the two differ in stderr" >&2
	same=1
fi
if [ -d "$work/old/state" ] || [ -d "$work/new/state" ]; then
	if ! diff -rq "$work/old/state" "$work/new/state" >/dev/null 2>&1; then
		echo "the two differ in the saved state" >&2
		same=1
	fi
fi
exit "$same"
