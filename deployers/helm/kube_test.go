package helm

import (
	"context"
	"strings"
	"testing"
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
			wantErr: "ensure CRDs are installed first"},
		{name: "bad YAML", manifest: "kind: [", wantErr: "decode manifest"},
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
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("built %v, want %v", got, tt.want)
			}
		})
	}
}
