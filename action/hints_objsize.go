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

// landscaperObjectSizeHint says, for an Installation or Execution (kind)
// whose last error is the refusal of an object it writes as too large for
// etcd (fakecluster objsize.go, as on a Landscaper cluster), what holds the
// bytes and how to get below the limit. It is empty for other errors.
func landscaperObjectSizeHint(kind, namespace, name string, le *lsv1alpha1.Error) string {
	if le == nil || !strings.Contains(le.Message, "etcdserver: request is too large") {
		return ""
	}
	what, why := "an object it writes", " (a subinstallation with an inline blueprint, or a DataObject of its exports)"
	advice := "move large files out of inline blueprints into blueprints of a component version, and keep exported data small"
	if kind == "Execution" {
		what, why = "a DeployItem", ", and a DeployItem holds the configuration its template rendered (the manifests "+
			"or helm values) in full (the Execution keeps its templates gzipped)"
		advice = "render less into one deploy item: split the manifests over several deploy items, or take large files " +
			"such as CRDs from a helm chart of the component version instead of inlining them"
	}
	return fmt.Sprintf("%s %s/%s: Landscaper's API server refused to store %s as too large, as a Landscaper cluster "+
		"does: etcd stores at most 1.5 MiB in one write%s. To get below the limit, %s", kind, namespace, name, what, why, advice)
}
