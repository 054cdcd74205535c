package action

import (
	"slices"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestDataRefsOfAllImportForms: describe relates every object an
// installation imports by name, as gardener/landscaper-examples' imports
// (configMapRef, secretRef), targetmaps (targetMap) and targetlists
// (targets) import them: it used to show only dataRef and target imports,
// and "Related: <none>" for those projects. An object imported several
// times is related once.
func TestDataRefsOfAllImportForms(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "root", Namespace: "example"}}
	inst.Spec.Imports.Data = []lsv1alpha1.DataImport{
		{Name: "a", DataRef: "do-a"},
		{Name: "b", ConfigMapRef: &lsv1alpha1.LocalConfigMapReference{Name: "cm", Key: "k"}},
		{Name: "c", SecretRef: &lsv1alpha1.LocalSecretReference{Name: "sec"}},
		{Name: "d", ConfigMapRef: &lsv1alpha1.LocalConfigMapReference{Name: "cm", Key: "other"}},
	}
	inst.Spec.Imports.Targets = []lsv1alpha1.TargetImport{
		{Name: "t", Target: "one"},
		{Name: "list", Targets: []string{"two", "three"}},
		{Name: "map", TargetMap: map[string]string{"west": "west-cluster", "north": "north-cluster"}},
	}
	got := dataRefsOf(inst)
	want := []namedRef{
		{"import", "DataObject", "example", "do-a"},
		{"import", "ConfigMap", "example", "cm"},
		{"import", "Secret", "example", "sec"},
		{"import", "Target", "example", "one"},
		{"import", "Target", "example", "two"},
		{"import", "Target", "example", "three"},
		{"import", "Target", "example", "north-cluster"},
		{"import", "Target", "example", "west-cluster"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
