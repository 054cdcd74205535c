package components

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

func repo(t *testing.T, js string) *cdv2.UnstructuredTypedObject {
	t.Helper()
	u := &cdv2.UnstructuredTypedObject{}
	if err := u.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestOverwritesApply(t *testing.T) {
	oci := repo(t, `{"type":"ociRegistry","baseUrl":"registry.example.com/a"}`)
	ociReordered := repo(t, `{"baseUrl":"registry.example.com/a","type":"ociRegistry"}`)
	other := repo(t, `{"type":"ociRegistry","baseUrl":"registry.example.com/b"}`)
	ow := func(src, sub lsv1alpha1.ComponentVersionOverwriteReference) lsv1alpha1.ComponentVersionOverwrite {
		return lsv1alpha1.ComponentVersionOverwrite{Source: src, Substitution: sub}
	}
	type ref = lsv1alpha1.ComponentVersionOverwriteReference
	tests := []struct {
		name    string
		o       Overwrites
		in      Ref
		want    Ref
		matched bool
	}{
		{"none", nil, Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "a", Version: "v1"}, false},
		{"version", Overwrites{ow(ref{ComponentName: "a", Version: "v1"}, ref{Version: "v2"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "a", Version: "v2"}, true},
		{"other version does not match", Overwrites{ow(ref{ComponentName: "a", Version: "v0"}, ref{Version: "v2"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "a", Version: "v1"}, false},
		{"repository context of the same JSON matches", Overwrites{ow(ref{RepositoryContext: ociReordered}, ref{ComponentName: "b"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "b", Version: "v1"}, true},
		{"other repository context does not match", Overwrites{ow(ref{RepositoryContext: other}, ref{ComponentName: "b"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "a", Version: "v1"}, false},
		{"matching substitutions combine", Overwrites{
			ow(ref{ComponentName: "a"}, ref{Version: "v2"}),
			ow(ref{Version: "v1"}, ref{RepositoryContext: other})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: other, Name: "a", Version: "v2"}, true},
		{"a conflicting substitution is left out entirely", Overwrites{
			ow(ref{ComponentName: "a"}, ref{Version: "v2"}),
			ow(ref{ComponentName: "a"}, ref{ComponentName: "b", Version: "v3"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "a", Version: "v2"}, true},
		{"matched against the reference as given, not the substituted one", Overwrites{
			ow(ref{ComponentName: "a"}, ref{ComponentName: "b"}),
			ow(ref{ComponentName: "b"}, ref{Version: "v9"})},
			Ref{Repo: oci, Name: "a", Version: "v1"}, Ref{Repo: oci, Name: "b", Version: "v1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, matched := tt.o.Apply(tt.in)
			if matched != tt.matched || got.Name != tt.want.Name || got.Version != tt.want.Version || !sameRepo(got.Repo, tt.want.Repo) {
				t.Errorf("Apply = %+v %v, want %+v %v", got, matched, tt.want, tt.matched)
			}
		})
	}
}
