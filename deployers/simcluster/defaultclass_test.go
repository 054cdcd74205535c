package simcluster

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// storageClass is a StorageClass manifest named name with binding mode
// mode, the default class when isDefault.
func storageClass(name, mode string, isDefault bool) string {
	annotations := ""
	if isDefault {
		annotations = ", annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}"
	}
	return "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " + name + annotations + "}\n" +
		"provisioner: example.com/" + name + "\nvolumeBindingMode: " + mode + "\n"
}

// claimClassName is spec.storageClassName of claim default/data, and
// whether it is set.
func (f *fixture) claimClassName() (string, bool) {
	f.t.Helper()
	class, ok, _ := unstructured.NestedString(f.get("v1", "PersistentVolumeClaim", "default", "data").Object, "spec", "storageClassName")
	return class, ok
}

// TestDefaultStorageClassAdmission: a claim created without a class gets
// the default StorageClass's name, as kube-apiserver's DefaultStorageClass
// admission sets it (the newest default when several are, then by name);
// a claim that names a class, "" included, keeps it; without a default
// class the claim has none. The class's binding mode then holds: the
// default class of kind's and many clusters binds on the first consumer.
func TestDefaultStorageClassAdmission(t *testing.T) {
	tests := []struct {
		name      string
		classes   []string
		claim     string
		wantClass string
		wantSet   bool
		wantPhase string
	}{
		{"no class, a default class", []string{storageClass("standard", "WaitForFirstConsumer", true)}, pvcManifest(""), "standard", true, "Pending"},
		{"no class, no default class", []string{storageClass("standard", "Immediate", false)}, pvcManifest(""), "", false, "Bound"},
		{"no StorageClass at all", nil, pvcManifest(""), "", false, "Bound"},
		{"a class named", []string{storageClass("standard", "Immediate", true), storageClass("fast", "Immediate", false)}, pvcManifest(", storageClassName: fast"), "fast", true, "Bound"},
		{"the empty class", []string{storageClass("standard", "WaitForFirstConsumer", true)}, pvcManifest(", storageClassName: \"\""), "", true, "Bound"},
		{"two defaults, same time", []string{storageClass("zeta", "Immediate", true), storageClass("alpha", "Immediate", true)}, pvcManifest(""), "alpha", true, "Bound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(tt.classes...)
			f.create(tt.claim)
			class, set := f.claimClassName()
			if class != tt.wantClass || set != tt.wantSet {
				t.Errorf("storageClassName = %q (set %v), want %q (set %v)", class, set, tt.wantClass, tt.wantSet)
			}
			if got := f.claimPhase("data"); got != tt.wantPhase {
				t.Errorf("phase = %q, want %s", got, tt.wantPhase)
			}
		})
	}
	t.Run("the newest default", func(t *testing.T) {
		f := newFixture(t)
		f.create(storageClass("old", "Immediate", true))
		f.clock.Step(time.Minute)
		f.create(storageClass("new", "Immediate", true))
		f.create(pvcManifest(""))
		if class, _ := f.claimClassName(); class != "new" {
			t.Errorf("storageClassName = %q, want new", class)
		}
	})
	t.Run("a template's claim", func(t *testing.T) {
		f := newFixture(t)
		f.create(storageClass("standard", "Immediate", true))
		f.create("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: default}\nspec:\n" +
			"  selector: {matchLabels: {app: db}}\n  serviceName: db\n" +
			"  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: postgres}]}}\n" +
			"  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n")
		class, _, _ := unstructured.NestedString(f.get("v1", "PersistentVolumeClaim", "default", "data-db-0").Object, "spec", "storageClassName")
		if class != "standard" {
			t.Errorf("storageClassName of data-db-0 = %q, want standard", class)
		}
	})
}
