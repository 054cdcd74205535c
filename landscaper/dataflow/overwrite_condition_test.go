package dataflow

import (
	"testing"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components"
)

func repo(t *testing.T, raw string) *cdv2.UnstructuredTypedObject {
	t.Helper()
	u := &cdv2.UnstructuredTypedObject{}
	if err := u.UnmarshalJSON([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestReferenceDiffIsLandscapers checks the texts of Landscaper's
// ComponentDescriptorReferenceDiff for each aspect.
func TestReferenceDiffIsLandscapers(t *testing.T) {
	oci := repo(t, `{"type":"ociRegistry","baseUrl":"a.example.com","componentNameMapping":"urlPath"}`)
	oci2 := repo(t, `{"baseUrl":"b.example.com","type":"ociRegistry"}`)
	local := repo(t, `{"type":"local","path":"/x"}`)
	for _, tt := range []struct {
		name          string
		old, replaced components.Ref
		want          string
	}{
		{"nothing", components.Ref{Repo: oci, Name: "n", Version: "v1"}, components.Ref{Repo: oci, Name: "n", Version: "v1"},
			"Component reference has not been overwritten."},
		{"same repository, keys in another order", components.Ref{Repo: oci2, Name: "n", Version: "v1"},
			components.Ref{Repo: repo(t, `{"type":"ociRegistry","baseUrl":"b.example.com"}`), Name: "n", Version: "v1"},
			"Component reference has not been overwritten."},
		{"all", components.Ref{Repo: oci, Name: "n", Version: "v1"}, components.Ref{Repo: oci2, Name: "m", Version: "v2"},
			"Component reference has been overwritten:\na.example.com (urlPath) -> b.example.com ()\nn -> m\nv1 -> v2"},
		{"repository of another type", components.Ref{Repo: oci2, Name: "n", Version: "v1"}, components.Ref{Repo: local, Name: "n", Version: "v1"},
			"Component reference has been overwritten:\n" + `{"baseUrl":"b.example.com","type":"ociRegistry"} -> {"path":"/x","type":"local"}` +
				"\nComponentName has not been overwritten\nVersion has not been overwritten"},
		{"no repository before", components.Ref{Name: "n", Version: "v1"}, components.Ref{Repo: local, Name: "n", Version: "v1"},
			"Component reference has been overwritten:\n" + `-> {"path":"/x","type":"local"}` +
				"\nComponentName has not been overwritten\nVersion has not been overwritten"},
	} {
		if got := referenceDiff(tt.old, tt.replaced); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
