package installation

import (
	"context"
	"errors"
	"slices"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// TestApplyExecutionOwner checks the owner handling of Landscaper's
// CreateOrUpdate of an installation's Execution: one of its name without a
// controller is taken over (other owner references stay), one controlled by
// another object is an AlreadyOwnedError in the write's wrapping, and is
// not changed.
func TestApplyExecutionOwner(t *testing.T) {
	templates := lsv1alpha1.DeployItemTemplateList{{Name: "item", Type: "landscaper.gardener.cloud/mock"}}
	plain := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "keeper", UID: "u-keeper"}
	other := dataflow.ControllerRef(&metav1.ObjectMeta{Name: "other", UID: "u-other"}, "Installation")
	for _, tt := range []struct {
		name    string
		owners  []metav1.OwnerReference
		want    []string // owner names after
		wantErr bool
	}{
		{name: "no owner", want: []string{"demo"}},
		{name: "plain owner only", owners: []metav1.OwnerReference{plain}, want: []string{"keeper", "demo"}},
		{name: "controlled by another installation", owners: []metav1.OwnerReference{other}, want: []string{"other"}, wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			c := New(*f.cfg)
			f.Create(inst("demo", lsv1alpha1.InstallationStatus{}))
			owner := f.Installation("demo")
			f.Create(&lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: testNS, OwnerReferences: tt.owners}})
			existing, err := c.executionByName(context.Background(), owner)
			if err != nil || existing == nil {
				t.Fatalf("executionByName: %v, %v", existing, err)
			}
			_, err = c.applyExecution(context.Background(), owner, existing, templates)
			var owned *controllerutil.AlreadyOwnedError
			var lsErr *reconcile.Error
			switch {
			case tt.wantErr && (!errors.As(err, &owned) || !errors.As(err, &lsErr) || lsErr.Operation != "errorWithWriteID"):
				t.Fatalf("want an AlreadyOwnedError in errorWithWriteID, got %v", err)
			case tt.wantErr && err.Error() != "Op: errorWithWriteID - Reason: write - Message: write operation W000022 failed with Object "+testNS+"/demo is already owned by another Installation controller other":
				t.Errorf("text: %s", err)
			case !tt.wantErr && err != nil:
				t.Fatal(err)
			}
			got := f.Execution("demo")
			var names []string
			for _, r := range got.OwnerReferences {
				names = append(names, r.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Fatalf("owners %v, want %v", names, tt.want)
			}
			if !tt.wantErr && !metav1.IsControlledBy(got, owner) {
				t.Errorf("not controlled by the installation: %+v", got.OwnerReferences)
			}
			if tt.wantErr != (len(got.Spec.DeployItems) == 0) {
				t.Errorf("deploy items %v (error case leaves them alone)", got.Spec.DeployItems)
			}
		})
	}
}

// TestApplySubinstallationOwner checks that a subinstallation another
// object controls is not written and gives Landscaper's nested error and
// condition; one the parent controls is updated as before.
func TestApplySubinstallationOwner(t *testing.T) {
	f := newFixture(t)
	c := New(*f.cfg)
	f.Create(inst("parent", lsv1alpha1.InstallationStatus{}))
	parent := f.Installation("parent")
	tmpl := &lsv1alpha1.InstallationTemplate{Name: "sub"}
	plain := dataflow.ControllerRef(parent, "Installation")
	plain.Controller = nil
	other := dataflow.ControllerRef(&metav1.ObjectMeta{Name: "other", UID: "u-other"}, "Installation")
	f.Create(&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "sub-x", Namespace: testNS,
		OwnerReferences: []metav1.OwnerReference{plain, other}}})
	sub := f.Installation("sub-x")
	_, err := c.applySubinstallation(context.Background(), parent, tmpl, lsv1alpha1.InstallationSpec{}, sub)
	var owned *controllerutil.AlreadyOwnedError
	want := "Op: EnsureSubInstallations - Reason: CreateOrUpdateInstallation - Message: unable to create installation for sub: " +
		"unable to create installation for sub: Op: errorWithWriteID - Reason: write - Message: write operation W000001 failed with " +
		"unable to set owner reference: Object " + testNS + "/sub-x is already owned by another Installation controller other"
	if !errors.As(err, &owned) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if got := f.Installation("sub-x"); len(got.Labels) != 0 || len(got.OwnerReferences) != 2 {
		t.Errorf("written: %+v", got.ObjectMeta)
	}
	cond := lshelper.GetCondition(parent.Status.Conditions, lsv1alpha1.EnsureSubInstallationsCondition)
	if cond == nil || cond.Status != lsv1alpha1.ConditionFalse || cond.Reason != "InstallationCreatingFailed" ||
		cond.Message != "Sub Installation sub cannot be created" {
		t.Errorf("condition %+v", cond)
	}
}
