package apply_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func TestPolicies(t *testing.T) {
	foreign := cm("a", ", labels: {"+apply.DeployItemLabel+": other}")
	tests := []struct {
		name          string
		policy        managedresource.ManifestPolicy
		stored        string
		wantWrites    string
		wantInventory string
		wantData      string
	}{
		{name: "manage creates", policy: "manage", wantWrites: "create ConfigMap ns/a", wantInventory: "manage ConfigMap ns/a", wantData: "new"},
		{name: "manage takes over", policy: "manage", stored: foreign, wantWrites: "update ConfigMap ns/a", wantInventory: "manage ConfigMap ns/a", wantData: "new"},
		{name: "fallback creates", policy: "fallback", wantWrites: "create ConfigMap ns/a", wantInventory: "fallback ConfigMap ns/a", wantData: "new"},
		{name: "fallback updates ours", policy: "fallback", stored: ours("a"), wantWrites: "update ConfigMap ns/a", wantInventory: "fallback ConfigMap ns/a", wantData: "new"},
		{name: "fallback leaves foreign", policy: "fallback", stored: foreign, wantData: "a"},
		{name: "fallback leaves unlabelled", policy: "fallback", stored: cm("a", ""), wantData: "a"},
		{name: "keep updates", policy: "keep", stored: ours("a"), wantWrites: "update ConfigMap ns/a", wantInventory: "keep ConfigMap ns/a", wantData: "new"},
		{name: "ignore does nothing", policy: "ignore"},
		{name: "ignore leaves existing", policy: "ignore", stored: ours("a"), wantData: "a"},
		{name: "immutable creates", policy: "immutable", wantWrites: "create ConfigMap ns/a", wantInventory: "immutable ConfigMap ns/a", wantData: "new"},
		{name: "immutable never updates", policy: "immutable", stored: foreign, wantInventory: "immutable ConfigMap ns/a", wantData: "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stored []string
			if tt.stored != "" {
				stored = []string{tt.stored}
			}
			c := newRecorder(stored, "")
			res := mustApply(t, apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update",
				Manifests: []managedresource.Manifest{m(tt.policy, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {k: new}")}})
			if w := writes(c); w != tt.wantWrites {
				t.Errorf("writes = %q, want %q", w, tt.wantWrites)
			}
			if got := inventory(res.ManagedResources); got != tt.wantInventory {
				t.Errorf("inventory = %q, want %q", got, tt.wantInventory)
			}
			data := ""
			if got := kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a"); got != nil {
				data = got.Object["data"].(map[string]any)["k"].(string)
			}
			if data != tt.wantData {
				t.Errorf("data.k = %q, want %q", data, tt.wantData)
			}
		})
	}
}

func TestAnnotateBeforeCreate(t *testing.T) {
	mf := m("manage", cm("a", ", annotations: {x: manifest, y2: manifest}"))
	mf.AnnotateBeforeCreate = map[string]string{"x": "create", "z": "create"}
	c := kubetest.NewClient(nil)
	opts := apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", Manifests: []managedresource.Manifest{mf}}
	mustApply(t, opts)
	if got := jsonOf(kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a").GetAnnotations()); got != `{"x":"create","y2":"manifest","z":"create"}` {
		t.Errorf("annotations after create = %s", got)
	}
	mustApply(t, opts)
	if got := jsonOf(kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a").GetAnnotations()); got != `{"x":"manifest","y2":"manifest"}` {
		t.Errorf("annotations after update = %s, want the manifest's only", got)
	}
}

func TestPatchAfterDeployment(t *testing.T) {
	withPatch := func(policy managedresource.ManifestPolicy, y string) managedresource.Manifest {
		mf := m(policy, y)
		mf.PatchAfterDeployment = &runtime.RawExtension{Raw: []byte(`{"data": {"patched": "yes"}}`)}
		return mf
	}
	c := kubetest.NewClient(kubetest.Objects(cm("old", ""), cm("frozen", "")))
	opts := apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", Manifests: []managedresource.Manifest{
		withPatch("manage", cm("new", "")), withPatch("manage", cm("old", "")), withPatch("immutable", cm("frozen", "")),
		withPatch("immutable", cm("fresh", "")), withPatch("ignore", cm("ign", "")), m("manage", cm("plain", "")),
	}}
	res := mustApply(t, opts)
	if got := patchNames(res.Patches); got != "new old fresh" {
		t.Errorf("patches from Apply = %q, want new old fresh", got)
	}
	opts.ManagedResources = res.ManagedResources
	later, err := apply.Patches(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := patchNames(later); got != "new old" {
		t.Errorf("patches from config = %q, want new old (immutable left out)", got)
	}
	if err := apply.PatchAfterDeployment(context.Background(), c, res.Patches); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"new": "yes", "old": "yes", "fresh": "yes", "frozen": "", "plain": ""} {
		got, _ := kubetest.Get(t, c, "v1", "ConfigMap", "ns", name).Object["data"].(map[string]any)["patched"].(string)
		if got != want {
			t.Errorf("%s: data.patched = %q, want %q", name, got, want)
		}
	}
}

func patchNames(patches []apply.Patch) string {
	var names []string
	for _, p := range patches {
		names = append(names, p.Object.Name)
	}
	return strings.Join(names, " ")
}

// managed is an inventory entry for ConfigMap ns/name.
func managed(policy managedresource.ManifestPolicy, name string) managedresource.ManagedResourceStatus {
	return managedresource.ManagedResourceStatus{Policy: policy,
		Resource: corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: name}}
}

// TestPatchAfterDeploymentErrors: the errors are Landscaper's
// (ManifestApplier.PatchAfterDeployment): the client's own when the object
// is gone, "error while decoding patch" for a patch that is no object.
func TestPatchAfterDeploymentErrors(t *testing.T) {
	c := kubetest.NewClient(kubetest.Objects(cm("there", "")))
	ref := func(name string) corev1.ObjectReference {
		return corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: name}
	}
	err := apply.PatchAfterDeployment(context.Background(), c, []apply.Patch{{Object: ref("gone"), Patch: &runtime.RawExtension{Raw: []byte(`{}`)}}})
	if want := `configmaps "gone" not found`; err == nil || err.Error() != want {
		t.Errorf("object gone: err = %v, want %s", err, want)
	}
	err = apply.PatchAfterDeployment(context.Background(), c, []apply.Patch{{Object: ref("there"), Patch: &runtime.RawExtension{Raw: []byte(`[1]`)}}})
	if want := "error while decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"; err == nil || err.Error() != want {
		t.Errorf("bad patch: err = %v, want %s", err, want)
	}
}
