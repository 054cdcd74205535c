package fakecluster

import (
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestNotFoundIsAPIMachinerys: the API server's own not-found error must be
// the very error apimachinery builds, message and details included.
func TestNotFoundIsAPIMachinerys(t *testing.T) {
	for _, gk := range []schema.GroupKind{
		{Group: "landscaper.gardener.cloud", Kind: "Installation"},
		{Kind: "ConfigMap"},
		{Kind: "Endpoints"},
		{Group: "apps", Kind: "Deployment"},
	} {
		for _, name := range []string{"demo", "", `we"ird\name`, "ümlaut\x01"} {
			want := apierrors.NewNotFound(guessGroupResource(gk), name)
			for range 2 { // the second call takes the cached resource
				if got := notFound(gk, name); !reflect.DeepEqual(got, want) {
					t.Errorf("notFound(%v, %q) = %#v, want %#v", gk, name, got, want)
				}
			}
		}
	}
}
