package apply_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func TestOrphans(t *testing.T) {
	stored := []string{ours("dropped"), ours("kept"), ours("fb-ours"), cm("fb-foreign", ", labels: {"+apply.DeployItemLabel+": other}"),
		ours("now-ignored"), ours("still"), ours("frozen"), ours("annotated")}
	annotated := managed("manage", "annotated")
	annotated.AnnotateBeforeDelete = map[string]string{"bye": "now"}
	old := managedresource.ManagedResourceStatusList{managed("manage", "dropped"), managed("keep", "kept"), managed("fallback", "fb-ours"),
		managed("fallback", "fb-foreign"), managed("manage", "now-ignored"), managed("manage", "still"), managed("immutable", "frozen"), annotated}
	manifests := []managedresource.Manifest{m("manage", cm("still", "")), m("ignore", cm("now-ignored", ""))}
	tests := []struct {
		name       string
		groups     []managedresource.DeletionGroupDefinition
		failName   string
		wantGone   string
		wantPasses int
		wantErr    string
	}{
		{name: "default groups", wantGone: "annotated dropped fb-ours frozen now-ignored", wantPasses: 1},
		{name: "empty group deletes nothing", wantPasses: 1,
			groups: []managedresource.DeletionGroupDefinition{{PredefinedResourceGroup: &managedresource.PredefinedResourceGroup{Type: "empty"}}}},
		{name: "custom group", wantGone: "frozen", wantPasses: 1,
			groups: []managedresource.DeletionGroupDefinition{{CustomResourceGroup: &managedresource.CustomResourceGroup{
				Resources: []managedresource.ResourceType{{APIVersion: "v1", Kind: "ConfigMap", Names: []string{"frozen"}}}}}}},
		{name: "failed apply skips cleanup", failName: "still", wantErr: "injected failure", wantPasses: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRecorder(stored, tt.failName)
			opts := apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", Manifests: manifests, ManagedResources: old, DeletionGroupsDuringUpdate: tt.groups}
			passes := 0
			for passes < 4 {
				passes++
				res, err := apply.Apply(t.Context(), opts)
				checkErr(t, err, tt.wantErr)
				if err != nil || res.Orphans.Done {
					break
				}
			}
			if passes != tt.wantPasses {
				t.Errorf("passes = %d, want %d", passes, tt.wantPasses)
			}
			var gone []string
			for _, s := range stored {
				o := kubetest.Object(s)
				if kubetest.Get(t, c, "v1", "ConfigMap", "ns", o.GetName()) == nil {
					gone = append(gone, o.GetName())
				}
			}
			slices.Sort(gone)
			if got := strings.Join(gone, " "); got != tt.wantGone {
				t.Errorf("gone = %q, want %q", got, tt.wantGone)
			}
		})
	}
}

func TestOrphanHooksBeforeDelete(t *testing.T) {
	annotated := managed("manage", "annotated")
	annotated.AnnotateBeforeDelete = map[string]string{"bye": "now"}
	c := newRecorder([]string{ours("annotated")}, "")
	res := mustApply(t, apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", ManagedResources: managedresource.ManagedResourceStatusList{annotated}})
	// The second delete is the pass that sees the object gone.
	if w := writes(c); w != "update ConfigMap ns/annotated|delete ConfigMap ns/annotated|delete ConfigMap ns/annotated" {
		t.Errorf("writes = %q, want the annotation before the delete", w)
	}
	if !res.Orphans.Done {
		t.Errorf("orphans = %+v, want done", res.Orphans)
	}
}

func TestContains(t *testing.T) {
	list := managedresource.ManagedResourceStatusList{managed("manage", "a")}
	list[0].Resource.UID = "u1"
	tests := []struct {
		name, apiVersion, kind, ns, objName, uid string
		want                                     bool
	}{
		{name: "same name", apiVersion: "v1", kind: "ConfigMap", ns: "ns", objName: "a", want: true},
		{name: "same uid other name", apiVersion: "v1", kind: "ConfigMap", ns: "ns", objName: "b", uid: "u1", want: true},
		{name: "other uid same name", apiVersion: "v1", kind: "ConfigMap", ns: "ns", objName: "a", uid: "u2", want: true},
		{name: "other version", apiVersion: "v2", kind: "ConfigMap", ns: "ns", objName: "a", want: true},
		{name: "other kind", apiVersion: "v1", kind: "Secret", ns: "ns", objName: "a"},
		{name: "other namespace", apiVersion: "v1", kind: "ConfigMap", ns: "x", objName: "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := managed("", tt.objName).Resource
			ref.APIVersion, ref.Kind, ref.Namespace, ref.UID = tt.apiVersion, tt.kind, tt.ns, typesUID(tt.uid)
			if got := apply.Contains(list, ref); got != tt.want {
				t.Errorf("Contains = %v, want %v", got, tt.want)
			}
		})
	}
}
