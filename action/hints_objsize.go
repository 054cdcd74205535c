package action

import (
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// objectTooLarge matches kube-apiserver's refusals of an object too large
// to store (etcd's "request is too large", passed on as it is) or to read
// (the request body limit; a simulated cluster answers both alike,
// deployers/simcluster objsize.go): the object's key when the manifest
// applier's "unable to create/update resource NS/NAME:" precedes it.
var objectTooLarge = regexp.MustCompile(`(?:resource (\S+): )?(?:etcdserver: request is too large|Request entity too large: limit is \d+)`)

// objectSizeHint says, for a deploy item whose object the API server
// refused as too large, the limits and how such objects get smaller: a
// CRD with long descriptions (Prometheus Operator's are 830 KB of YAML)
// comes near them. It is empty for other items.
func objectSizeHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, objectTooLarge)
	if m == nil {
		return ""
	}
	what := "an object"
	if m[1] != "" {
		what = strings.TrimPrefix(m[1], "/")
	}
	return fmt.Sprintf("DeployItem %s/%s: the API server refused %s as too large, as a real cluster with default flags "+
		"does: etcd stores at most 1.5 MiB in one write (--max-request-bytes) and kube-apiserver reads at most 3 MiB "+
		"of a request. Landscaper's manifest deployer writes the object as it is (no last-applied annotation), so "+
		"the object itself must shrink: for a CRD drop its descriptions (controller-gen crd:maxDescLen=0) or "+
		"versions it no longer serves; else split the data over several objects", di.Namespace, di.Name, what)
}
