#!/usr/bin/env bash
# test.sh runs all of lscli's tests, including those against a real
# kube-apiserver and etcd: it first makes sure the test cluster binaries are
# in the cache (hack/build-test-cluster.sh: a cold build takes minutes, later
# runs find them and build nothing), then runs `go test ./...` with any
# further arguments, e.g. `hack/test.sh -run Helm -v`. Without arguments it
# then runs each fuzz target for a few seconds (hack/fuzz.sh, FUZZTIME).
# The time limit per package is 30 minutes, not go test's 10: the CLI scripts
# of package cmd take about 4 minutes on an idle 2-core machine and more than
# 10 on a busy one.
#
# Plain `go test ./...` runs the same tests but skips the real-cluster ones
# while the binaries are missing (unless CI=true, which makes that a failure).
# go test's cache does not watch files outside the module, so a skip cached
# before the binaries were built would be reported again; KUBEBUILDER_ASSETS,
# which the tests read, keeps the runs of this script apart from those.
set -euo pipefail
cd "$(dirname "$0")/.."
hack/build-test-cluster.sh >&2
KUBEBUILDER_ASSETS="$(hack/build-test-cluster.sh --print)"
export KUBEBUILDER_ASSETS
go test -timeout 30m ./... "$@"
if [ "$#" -eq 0 ]; then
	hack/fuzz.sh
fi
