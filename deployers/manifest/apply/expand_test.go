package apply_test

import (
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/manifest/apply"
)

// TestExpandError: a manifest whose items are no list does not expand, with
// Landscaper's text (ExpandManagedResourceManifests around expandManifest).
func TestExpandError(t *testing.T) {
	_, err := apply.Expand([]managedresource.Manifest{{Policy: managedresource.ManagePolicy,
		Manifest: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"example.com/v1","kind":"Bag","metadata":{"name":"b"},"items":{"a":1}}`)}}})
	want := "unable to expand managed resource manifests: unable to expand manifest: json: cannot unmarshal object into Go struct field List.items of type []runtime.RawExtension"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
