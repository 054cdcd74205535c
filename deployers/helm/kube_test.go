package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/kube"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestBuild decodes manifests the way helm's kube client does.
func TestBuild(t *testing.T) {
	tests := []struct {
		name, manifest string
		want           []string // "Kind namespace/name"
		wantErr        string
	}{
		{name: "namespace defaulted", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
			want: []string{"ConfigMap rel/a"}},
		{name: "namespace kept", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: other}\n",
			want: []string{"ConfigMap other/a"}},
		{name: "cluster-scoped loses its namespace", manifest: "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns1, namespace: x}\n",
			want: []string{"Namespace ns1"}},
		{name: "list expanded, empty documents skipped",
			manifest: "---\n# only a comment\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: Secret, metadata: {name: b}}\n",
			want:     []string{"ConfigMap rel/a", "Secret rel/b"}},
		{name: "unknown kind", manifest: "apiVersion: x.io/v1\nkind: Thing\nmetadata: {name: t}\n",
			wantErr: "resource mapping not found for name: \"t\" namespace: \"\" from \"\": no matches for kind \"Thing\" in version \"x.io/v1\"\nensure CRDs are installed first"},
		{name: "every unknown kind, as cli-runtime's builder with ContinueOnError gives them",
			manifest: "apiVersion: x.io/v1\nkind: Thing\nmetadata: {name: t}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: y.io/v1\nkind: Other\nmetadata: {name: o, namespace: team}\n",
			wantErr: "[resource mapping not found for name: \"t\" namespace: \"\" from \"\": no matches for kind \"Thing\" in version \"x.io/v1\"\nensure CRDs are installed first, " +
				"resource mapping not found for name: \"o\" namespace: \"team\" from \"\": no matches for kind \"Other\" in version \"y.io/v1\"\nensure CRDs are installed first]"},
		{name: "bad YAML", manifest: "kind: [", wantErr: "decode manifest"},
		{name: "no kind", manifest: "apiVersion: v1\nmetadata: {name: a}\n",
			wantErr: `unable to decode "": Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"a"}}'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &kubeClient{ctx: context.Background(), c: newTestCluster(), namespace: "rel"}
			list, err := k.Build(strings.NewReader(tt.manifest), false)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, info := range list {
				got = append(got, describe(info))
				if u, ok := info.Object.(*unstructured.Unstructured); ok && u.GetAPIVersion() != info.Mapping.GroupVersionKind.GroupVersion().String() {
					t.Errorf("%s: apiVersion %q, want the mapping's %q", describe(info), u.GetAPIVersion(), info.Mapping.GroupVersionKind.GroupVersion())
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("built %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWaitOnSimulatedClusterDoesNotBlock: on a simulated cluster, time only
// moves between calls, so Wait must not poll: a CRD that is not served yet
// fails the attempt at once (the framework retries it on the virtual clock),
// even with an hour of timeout. Polling would block this test for an hour.
func TestWaitOnSimulatedClusterDoesNotBlock(t *testing.T) {
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "gadgets.demo.lscli.io"},
		"spec": map[string]any{"group": "demo.lscli.io", "names": map[string]any{"kind": "Gadget"},
			"versions": []any{map[string]any{"name": "v1", "served": true}}},
	}}
	k := &kubeClient{ctx: context.Background(), c: newTestCluster(), namespace: "rel"}
	err := k.Wait(kube.ResourceList{{Name: crd.GetName(), Object: crd}}, time.Hour)
	if err == nil || !strings.Contains(err.Error(), "CRD gadgets.demo.lscli.io is not served yet") {
		t.Fatalf("Wait = %v, want the CRD not served yet", err)
	}
	// a CRD whose kind is served passes
	widget := crd.DeepCopy()
	unstructured.SetNestedField(widget.Object, "Widget", "spec", "names", "kind")
	if err := k.Wait(kube.ResourceList{{Name: "widgets", Object: widget}}, time.Hour); err != nil {
		t.Errorf("Wait for a served CRD = %v", err)
	}
}
