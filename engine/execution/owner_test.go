package execution

import (
	"context"
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// TestApplyTemplateOwner checks the owner handling of Landscaper's
// updateDeployItem on an item found by its labels: without a controller it
// is taken over, controlled by another Execution it is an AlreadyOwnedError
// in the write's and updateDeployItem's wrapping, and is not changed.
func TestApplyTemplateOwner(t *testing.T) {
	tmpl := lsv1alpha1.DeployItemTemplate{Name: "item", Type: "landscaper.gardener.cloud/mock"}
	other := dataflow.ControllerRef(&metav1.ObjectMeta{Name: "other", UID: "u-other"}, "Execution")
	for _, tt := range []struct {
		name    string
		owners  []metav1.OwnerReference
		wantErr bool
	}{
		{name: "no owner"},
		{name: "controlled by another execution", owners: []metav1.OwnerReference{other}, wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			c := New(*f.cfg)
			f.Create(&lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Name: "exec", Namespace: testNS},
				Spec: lsv1alpha1.ExecutionSpec{DeployItems: lsv1alpha1.DeployItemTemplateList{tmpl}}})
			exec := f.Execution("exec")
			f.Create(&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "mine", Namespace: testNS, OwnerReferences: tt.owners,
				Labels: map[string]string{lsv1alpha1.ExecutionManagedByLabel: "exec", lsv1alpha1.ExecutionManagedNameLabel: "item"}},
				Spec: lsv1alpha1.DeployItemSpec{Type: tmpl.Type}})
			items, err := c.deployItems(context.Background(), exec)
			if err != nil || items["item"] == nil {
				t.Fatalf("deployItems: %v, %v", items, err)
			}
			_, err = c.applyTemplate(context.Background(), exec, tmpl, items["item"])
			di := &lsv1alpha1.DeployItem{}
			if !f.Get(di, "mine") {
				t.Fatal("mine is gone")
			}
			if !tt.wantErr {
				if err != nil || !metav1.IsControlledBy(di, exec) {
					t.Fatalf("want taken over, got %v, owners %+v", err, di.OwnerReferences)
				}
				return
			}
			var owned *controllerutil.AlreadyOwnedError
			var lsErr *reconcile.Error
			if !errors.As(err, &owned) || !errors.As(err, &lsErr) || lsErr.Operation != "updateDeployItem" ||
				lsErr.Reason != "error while triggering deployitem mine" {
				t.Fatalf("want an AlreadyOwnedError under updateDeployItem, got %v", err)
			}
			if metav1.GetControllerOf(di).Name != "other" || di.Labels[lsv1alpha1.ExecutionManagedNameLabel] != "item" ||
				di.Annotations[lsv1alpha1.ReconcileTimestampAnnotation] != "" {
				t.Errorf("an item another object controls was written: %+v", di.ObjectMeta)
			}
		})
	}
}

// TestExecutionItemsDuplicateName checks Landscaper's getExecutionItems
// (pkg/landscaper/execution/helper.go) over a list by label: of two items
// with the same template name, the first the API server lists (by object
// name) is the template's item and the other is an orphan.
func TestExecutionItemsDuplicateName(t *testing.T) {
	f := newFixture(t)
	c := New(*f.cfg)
	tmpl := lsv1alpha1.DeployItemTemplate{Name: "item", Type: "landscaper.gardener.cloud/mock"}
	f.Create(&lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Name: "exec", Namespace: testNS},
		Spec: lsv1alpha1.ExecutionSpec{DeployItems: lsv1alpha1.DeployItemTemplateList{tmpl}}})
	exec := f.Execution("exec")
	for _, name := range []string{"exec-item-zzzzz", "exec-item-bbbbb"} {
		f.Create(&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS,
			Labels: map[string]string{lsv1alpha1.ExecutionManagedByLabel: "exec", lsv1alpha1.ExecutionManagedNameLabel: "item"}},
			Spec: lsv1alpha1.DeployItemSpec{Type: tmpl.Type}})
	}
	items, orphans, err := c.executionItems(context.Background(), exec)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].di == nil || items[0].di.Name != "exec-item-bbbbb" {
		t.Errorf("want the item exec-item-bbbbb for template item, got %+v", items)
	}
	if len(orphans) != 1 || orphans[0].di.Name != "exec-item-zzzzz" {
		t.Errorf("want the orphan exec-item-zzzzz, got %+v", orphans)
	}
	byName, err := c.deployItems(context.Background(), exec)
	if err != nil || byName["item"] == nil || byName["item"].Name != "exec-item-bbbbb" {
		t.Errorf("deployItems: want exec-item-bbbbb for item, got %v, %v", byName, err)
	}
}
