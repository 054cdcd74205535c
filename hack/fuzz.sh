#!/usr/bin/env bash
# fuzz.sh runs each of lscli's fuzz targets for a short while (hack/test.sh
# calls it in CI). New crashers are written to the package's
# testdata/fuzz/<target>/ and fail the run; commit them with the fix, so
# that go test replays them.
#
# By default each target runs a number of executions (about 5 seconds'
# worth on the project's 2-core machine), not a time: with a time, the Go
# 1.26 fuzzing coordinator can report "context deadline exceeded" and fail
# a run that found nothing, when the time runs out while a worker is still
# executing an input (go.dev/issue/75804, fixed in Go 1.27). A count has no
# deadline to race. FUZZTIME sets one budget for every target instead, a
# count ("20000x") or a time for a longer campaign, whose boundary may then
# fail that way (a real crasher always writes a file and says so):
#
#   FUZZTIME=10m hack/fuzz.sh
#
# Its figures go into docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
# package, target, executions by default
targets=(
	"./landscape FuzzLoad 6000x"
	"./landscaper/template FuzzGoTemplate 8000x"
	"./landscaper/template FuzzSpiff 3000x"
	"./state FuzzDecode 20000x"
	"./cmd FuzzConfig 1000x"
	"./cmd FuzzReconcile 50x"
	"./internal/fastjson FuzzUnmarshalStrict 10000x"
	"./internal/fastjson FuzzIndenterIsIndent 10000x"
)
for t in "${targets[@]}"; do
	read -r pkg name budget <<<"$t"
	budget="${FUZZTIME:-$budget}"
	echo "fuzz: $name ($pkg) for $budget" >&2
	go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" -parallel "${FUZZPARALLEL:-2}"
done
