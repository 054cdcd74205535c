package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestClearedFieldHint: an export of a manifest item that times out on a
// field of one of the item's own objects that its manifest does not set
// (spec.ingressClassName, which kube-apiserver's DefaultIngressClass
// admission set on the creation) gets a hint that the deployer's update
// wrote the manifest without the field, instead of the advice to seed the
// object; with updateStrategy merge, a status field, an object the item
// does not apply, or a field the manifest sets, the general hint stays.
func TestClearedFieldHint(t *testing.T) {
	const msg = `Op: Export - Reason: ProgressingTimeout - Message: timeout at: "deployer: during export - key: ingressClass": context deadline exceeded`
	config := func(strategy, path, name, spec string) string {
		s := ""
		if strategy != "" {
			s = `"updateStrategy":"` + strategy + `",`
		}
		return `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration",` + s +
			`"manifests":[{"policy":"manage","manifest":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress",` +
			`"metadata":{"name":"whoami","namespace":"whoami"},"spec":{"rules":[{"host":"a.example"}]` + spec + `}}}],` +
			`"exports":{"exports":[{"key":"ingressClass","jsonPath":"` + path + `","fromResource":{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"` + name + `","namespace":"whoami"}}]}}`
	}
	item := func(cfg string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, msg)
		di.Spec.Type = "landscaper.gardener.cloud/kubernetes-manifest"
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(cfg)}
		return di
	}
	const cleared = `export "ingressClass" timed out: it reads .spec.ingressClassName of Ingress whoami/whoami, an object the item applies, and its manifest does not set that field`
	tests := []struct {
		name, cfg string
		cleared   bool
	}{
		{"update strategy default", config("", ".spec.ingressClassName", "whoami", ""), true},
		{"update strategy patch", config("patch", ".spec.ingressClassName", "whoami", ""), true},
		{"update strategy merge", config("merge", ".spec.ingressClassName", "whoami", ""), false},
		{"a status field", config("", ".status.loadBalancer.ingress[0].ip", "whoami", ""), false},
		{"another object", config("", ".spec.ingressClassName", "other", ""), false},
		{"the manifest sets it", config("", ".spec.ingressClassName", "whoami", `,"ingressClassName":"traefik"`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := timeoutHint(item(tt.cfg), nil)
			if tt.cleared {
				for _, w := range []string{cleared, "DefaultIngressClass", "set spec.ingressClassName in the manifest", `updateStrategy "merge" keeps`} {
					if !strings.Contains(got, w) {
						t.Errorf("hint = %q, want it to contain %q", got, w)
					}
				}
				if strings.Contains(got, "seed") {
					t.Errorf("hint = %q, want no advice to seed", got)
				}
				return
			}
			if strings.Contains(got, "its manifest does not set") || !strings.Contains(got, "seed the object") {
				t.Errorf("hint = %q, want the general export hint", got)
			}
		})
	}
}
