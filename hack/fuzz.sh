#!/usr/bin/env bash
# fuzz.sh runs each of lscli's fuzz targets for a short time (FUZZTIME,
# default 5s each; hack/test.sh calls it in CI). New crashers are written
# to the package's testdata/fuzz/<target>/ and fail the run; commit them
# with the fix, so that go test replays them. A longer campaign:
#
#   FUZZTIME=10m hack/fuzz.sh
#
# Its figures go into docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-5s}"
targets=(
	"./landscape FuzzLoad"
	"./landscaper/template FuzzGoTemplate"
	"./landscaper/template FuzzSpiff"
	"./state FuzzDecode"
	"./cmd FuzzConfig"
)
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	echo "fuzz: $name ($pkg) for $fuzztime" >&2
	go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel "${FUZZPARALLEL:-2}"
done
