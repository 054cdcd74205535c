package manifest_test

import (
	"strings"
	"testing"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterDeleteAllThenCRDs deletes, on a real kube-apiserver, an
// item whose deletionGroups delete every custom resource of its kind
// first (deleteAllResources) and its CRD last, as Strimzi's and ECK's
// uninstalls are written: the deletion succeeds, as Landscaper's does,
// which never lists a finished group again, although the kind is not
// served any more once the CRD's cleanup finished.
func TestRealClusterDeleteAllThenCRDs(t *testing.T) {
	ns := testcluster.Get(t).Namespace(t)
	cfg := header + `deletionGroups:
- customResourceGroup:
    resources: [{apiVersion: del.lscli.io/v1, kind: Gadget}]
    deleteAllResources: true
- predefinedResourceGroup: {type: namespaced-resources}
- predefinedResourceGroup: {type: crds}
manifests:
- manifest:
    apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: {name: gadgets.del.lscli.io}
    spec:
      group: del.lscli.io
      names: {kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget}
      scope: Namespaced
      versions:
      - name: v1
        served: true
        storage: true
        schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
- manifest: {apiVersion: del.lscli.io/v1, kind: Gadget, metadata: {name: g, namespace: ` + ns + `}, spec: {size: 1}}
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg, namespace: ` + ns + `}}
`
	h, _ := realHarness(t, cfg)
	trace, _ := h.realJob(false, 20)
	if !strings.HasSuffix(trace, " Succeeded") {
		t.Fatalf("apply trace:\n%s\nwant it to end in Succeeded", trace)
	}
	trace, retried := h.realJob(true, 200)
	if !strings.HasSuffix(trace, " Succeeded") {
		t.Errorf("delete trace:\n%s\nretried:\n%s\nwant it to end in Succeeded", trace, strings.Join(retried, "\n"))
	}
	if kubetest.Get(t, h.cluster, "apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gadgets.del.lscli.io") != nil {
		t.Error("delete left the CRD")
	}
}
