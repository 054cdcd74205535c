#!/usr/bin/env bash
# build-test-cluster.sh builds the kube-apiserver and etcd binaries that the
# real-cluster tests run through controller-runtime's envtest, from the Go
# module proxy only (nothing else can be downloaded where lscli is built).
#
#   hack/build-test-cluster.sh          # build into the cache unless already there
#   hack/build-test-cluster.sh --print  # print the bin folder (for KUBEBUILDER_ASSETS)
#
# The binaries go to ${LSCLI_TEST_CACHE:-$HOME/.cache/lscli-testcluster}/bin, the
# throwaway build modules to .../src; nothing is written into the repository.
# A cold build takes about 20 minutes of CPU time (see docs/testing.md); when the
# binaries of the pinned versions are already there it does nothing.
set -euo pipefail

# Versions. KUBE_VERSION matches the k8s.io/* v0.37.2 modules of lscli's go.mod;
# ETCD_VERSION is the etcd that k8s.io/kubernetes@KUBE_VERSION itself requires.
KUBE_VERSION=v1.37.2
STAGING_VERSION=v0.37.2
ETCD_VERSION=v3.7.0

cache="${LSCLI_TEST_CACHE:-${HOME}/.cache/lscli-testcluster}"
bin="${cache}/bin"
stamp="${bin}/VERSIONS"
want="kube-apiserver ${KUBE_VERSION} etcd ${ETCD_VERSION}"

if [[ "${1:-}" == "--print" ]]; then
	echo "${bin}"
	exit 0
fi

if [[ -x "${bin}/kube-apiserver" && -x "${bin}/etcd" && "$(cat "${stamp}" 2>/dev/null)" == "${want}" ]]; then
	echo "test cluster binaries are up to date in ${bin}"
	exit 0
fi

# A throwaway module never picks up a workspace or the caller's flags.
export GOWORK=off GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
mkdir -p "${bin}" "${cache}/src"
start=${SECONDS}

# step prints "[i/2] what" on stderr, with the time since the start.
step() {
	echo "[$1/2] $2 ($((SECONDS - start))s so far)" >&2
}

# compile runs "go build -v ARGS..." in the current folder for package pkg,
# named name, and says how far it is: every 100 packages compiled, how many
# of the packages pkg depends on are done (packages already in the build
# cache are not compiled again, so a warm build ends early).
compile() {
	local name="$1" pkg="$2"
	shift 2
	local total n=0
	total="$(go list -deps "${pkg}" | wc -l | tr -d ' ')"
	echo "      ${name}: compiling up to ${total} packages" >&2
	go build -v "$@" 2>&1 | while IFS= read -r line; do
		if [[ "${line}" =~ ^[A-Za-z0-9._~/-]+$ ]]; then
			n=$((n + 1))
			if ((n % 100 == 0)); then
				echo "      ${name}: ${n} of up to ${total} packages compiled ($((SECONDS - start))s so far)" >&2
			fi
		else
			echo "${line}" >&2
		fi
	done
}

# build_apiserver writes a module that requires k8s.io/kubernetes and pins every
# staging module (required as v0.0.0 and replaced by ./staging/... in
# kubernetes' own go.mod, which does not apply to a dependency) to
# STAGING_VERSION, then builds cmd/kube-apiserver with its version stamped in,
# so that discovery reports KUBE_VERSION.
build_apiserver() {
	local dir="${cache}/src/kube-apiserver"
	rm -rf "${dir}" && mkdir -p "${dir}"
	local kmod
	kmod="$(go mod download -json "k8s.io/kubernetes@${KUBE_VERSION}" | sed -n 's/^\t"GoMod": "\(.*\)",$/\1/p')"
	[[ -f "${kmod}" ]] || { echo "cannot download the go.mod of k8s.io/kubernetes@${KUBE_VERSION}" >&2; return 1; }
	{
		echo "module lscli.local/testcluster/kube-apiserver"
		echo
		echo "go 1.26.0"
		echo
		echo "require k8s.io/kubernetes ${KUBE_VERSION}"
		echo
		echo "replace ("
		grep -oE '^[[:space:]]*k8s\.io/[a-z0-9-]+ v0\.0\.0$' "${kmod}" | awk -v v="${STAGING_VERSION}" '{print "\t" $1 " => " $1 " " v}'
		echo ")"
	} >"${dir}/go.mod"
	local minor="${KUBE_VERSION#v1.}"
	minor="${minor%%.*}"
	local pkg=k8s.io/component-base/version
	echo "      kube-apiserver: downloading k8s.io/kubernetes ${KUBE_VERSION} and its modules" >&2
	(cd "${dir}" && go get "k8s.io/kubernetes/cmd/kube-apiserver@${KUBE_VERSION}" &&
		compile kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -trimpath -o "${bin}/kube-apiserver" -ldflags "-s -w \
			-X ${pkg}.gitVersion=${KUBE_VERSION} -X ${pkg}.gitMajor=1 -X ${pkg}.gitMinor=${minor} \
			-X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=1970-01-01T00:00:00Z" \
			k8s.io/kubernetes/cmd/kube-apiserver)
}

# build_etcd writes a one-line main around etcdmain.Main and builds it.
build_etcd() {
	local dir="${cache}/src/etcd"
	rm -rf "${dir}" && mkdir -p "${dir}"
	cat >"${dir}/go.mod" <<EOF
module lscli.local/testcluster/etcd

go 1.26.0

require go.etcd.io/etcd/server/v3 ${ETCD_VERSION}
EOF
	cat >"${dir}/main.go" <<'EOF'
// Command etcd is etcd's server, built from the Go module proxy for lscli's tests.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
	echo "      etcd: downloading go.etcd.io/etcd/server/v3 ${ETCD_VERSION} and its modules" >&2
	(cd "${dir}" && go mod tidy && compile etcd . -trimpath -o "${bin}/etcd" -ldflags "-s -w" .)
}

echo "building the test cluster binaries into ${bin}: etcd ${ETCD_VERSION}, kube-apiserver ${KUBE_VERSION}" >&2
echo "(a cold build takes about 20 minutes of CPU time; see docs/testing.md)" >&2
step 1 "building etcd ${ETCD_VERSION}"
build_etcd
step 2 "building kube-apiserver ${KUBE_VERSION} (the long one)"
build_apiserver
echo "${want}" >"${stamp}"
echo "built ${want} into ${bin} in $((SECONDS - start))s"
