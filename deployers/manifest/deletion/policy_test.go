package deletion_test

import (
	"context"
	"maps"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func cmRef(name string) corev1.ObjectReference {
	return corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: name}
}

func TestDeletable(t *testing.T) {
	c := kubetest.NewClient(kubetest.Objects(
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ours, namespace: ns, labels: {"+deletion.DeployItemLabel+": di}}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: theirs, namespace: ns, labels: {"+deletion.DeployItemLabel+": other}}",
	))
	tests := []struct {
		name   string
		policy managedresource.ManifestPolicy
		object string
		want   bool
	}{
		{name: "manage", policy: managedresource.ManagePolicy, object: "theirs", want: true},
		{name: "immutable", policy: managedresource.ImmutablePolicy, object: "ours", want: true},
		{name: "keep", policy: managedresource.KeepPolicy, object: "ours"},
		{name: "ignore", policy: managedresource.IgnorePolicy, object: "ours"},
		{name: "fallback ours", policy: managedresource.FallbackPolicy, object: "ours", want: true},
		{name: "fallback taken over", policy: managedresource.FallbackPolicy, object: "theirs"},
		{name: "fallback gone", policy: managedresource.FallbackPolicy, object: "gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mr := &managedresource.ManagedResourceStatus{Policy: tt.policy, Resource: cmRef(tt.object)}
			got, err := deletion.Deletable(context.Background(), c, mr, "di")
			if err != nil || got != tt.want {
				t.Errorf("Deletable = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestPrepareForDelete(t *testing.T) {
	const stored = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: ns, annotations: {a: old, keep: 'yes'}}\ndata: {x: '1', w: '2'}"
	tests := []struct {
		name         string
		object       string
		annotate     map[string]string
		patch        string
		wantNotFound bool
		wantAnn      map[string]string
		wantData     map[string]any
	}{
		{name: "no hooks", object: "cm", wantAnn: map[string]string{"a": "old", "keep": "yes"}, wantData: map[string]any{"x": "1", "w": "2"}},
		{name: "annotate", object: "cm", annotate: map[string]string{"a": "new", "b": "b"},
			wantAnn: map[string]string{"a": "new", "b": "b", "keep": "yes"}, wantData: map[string]any{"x": "1", "w": "2"}},
		{name: "patch merges nested maps", object: "cm", patch: `{"data": {"w": "patched", "z": "3"}}`,
			wantAnn: map[string]string{"a": "old", "keep": "yes"}, wantData: map[string]any{"x": "1", "w": "patched", "z": "3"}},
		{name: "gone", object: "missing", annotate: map[string]string{"a": "b"}, wantNotFound: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kubetest.NewClient(kubetest.Objects(stored))
			mr := &managedresource.ManagedResourceStatus{Resource: cmRef(tt.object), AnnotateBeforeDelete: tt.annotate}
			if tt.patch != "" {
				mr.PatchBeforeDelete = &runtime.RawExtension{Raw: []byte(tt.patch)}
			}
			notFound, err := deletion.PrepareForDelete(context.Background(), c, mr)
			if err != nil || notFound != tt.wantNotFound {
				t.Fatalf("PrepareForDelete = %v, %v; want %v", notFound, err, tt.wantNotFound)
			}
			if tt.wantNotFound {
				return
			}
			got := kubetest.Get(t, c, "v1", "ConfigMap", "ns", "cm")
			if !maps.Equal(got.GetAnnotations(), tt.wantAnn) {
				t.Errorf("annotations = %v, want %v", got.GetAnnotations(), tt.wantAnn)
			}
			if data := got.Object["data"].(map[string]any); !equalAny(data, tt.wantData) {
				t.Errorf("data = %v, want %v", data, tt.wantData)
			}
		})
	}
}

func TestMergeAnnotations(t *testing.T) {
	got := deletion.MergeAnnotations(map[string]string{"a": "1", "b": "2"}, map[string]string{"b": "", "c": "3"})
	want := map[string]string{"a": "1", "b": "", "c": "3"}
	if !maps.Equal(got, want) {
		t.Errorf("MergeAnnotations = %v, want %v (map entries of add always win)", got, want)
	}
	if got := deletion.MergeAnnotations(nil, map[string]string{"x": ""}); !maps.Equal(got, map[string]string{"x": ""}) {
		t.Errorf("MergeAnnotations(nil) = %v", got)
	}
}

func equalAny(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestPrepareForDeleteBadPatch: a patchBeforeDelete that is no object fails
// with Landscaper's text (AnnotateAndPatchBeforeDelete).
func TestPrepareForDeleteBadPatch(t *testing.T) {
	c := kubetest.NewClient(kubetest.Objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}"))
	mr := &managedresource.ManagedResourceStatus{Resource: cmRef("a"), PatchBeforeDelete: &runtime.RawExtension{Raw: []byte(`[1]`)}}
	_, err := deletion.PrepareForDelete(context.Background(), c, mr)
	if want := "error while decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
