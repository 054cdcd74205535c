package deployers

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// finishedItem is a Succeeded item whose job has finished, with the
// test-reconcile annotation.
func finishedItem(typ lsv1alpha1.DeployItemType, mutate ...func(*lsv1alpha1.DeployItem)) *lsv1alpha1.DeployItem {
	return item(typ, append([]func(*lsv1alpha1.DeployItem){func(di *lsv1alpha1.DeployItem) {
		di.Annotations = map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.TestReconcileOperation)}
		di.Status.Phase, di.Status.JobIDFinished, di.Status.ObservedGeneration = lsv1alpha1.DeployItemPhases.Succeeded, "job-1", 1
	}}, mutate...)...)
}

// TestFrameworkTestReconcileAsLandscaper follows the deployer library's
// handling of the test-reconcile annotation (reconcilePrivate in
// pkg/deployer/lib/controller.go).
func TestFrameworkTestReconcileAsLandscaper(t *testing.T) {
	t.Run("an unchanged Succeeded updateOnChangeOnly item is reconciled again", func(t *testing.T) {
		h := newHarness(t, Mock{})
		h.create(finishedItem(MockType, func(di *lsv1alpha1.DeployItem) { di.Spec.UpdateOnChangeOnly = true }))
		h.clock.Set(epoch.Add(time.Minute))
		h.run(0)
		if want := []string{"+1m0s Init", "+1m0s Succeeded"}; !equalStrings(h.trace, want) {
			t.Errorf("phases = %q, want %q", h.trace, want)
		}
	})
	t.Run("the new job is first written with its Init, its transition times have the trigger time", func(t *testing.T) {
		h := newHarness(t, Mock{})
		h.create(finishedItem(MockType))
		h.clock.Set(epoch.Add(time.Minute))
		var writes []string
		h.cluster.Watch(func(ev fakecluster.Event) {
			if di, ok := ev.New.(*lsv1alpha1.DeployItem); ok && ev.Type == fakecluster.Modified && di.Status.JobID != "job-1" {
				old := ev.Old.(*lsv1alpha1.DeployItem)
				if old.Status.JobID == "job-1" {
					writes = append(writes, string(di.Status.Phase))
				}
			}
		})
		h.run(0)
		if len(writes) != 1 || writes[0] != string(lsv1alpha1.DeployItemPhases.Init) {
			t.Errorf("first writes of the new job ID have phases %q, want [Init]", writes)
		}
		st := h.get().Status
		now := epoch.Add(time.Minute)
		if st.JobID == "job-1" || st.JobIDFinished != st.JobID || st.TransitionTimes == nil || st.TransitionTimes.TriggerTime == nil ||
			!st.TransitionTimes.TriggerTime.Time.Equal(now) {
			t.Errorf("status = %+v (times %+v), want a new finished job triggered at %s", st, st.TransitionTimes, now)
		}
	})
	t.Run("a Target that cannot be resolved leaves the annotation and the job", func(t *testing.T) {
		h := newHarness(t, Mock{})
		h.must(h.cluster.Create(context.Background(), &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "secret"},
			Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType,
				SecretRef: &lsv1alpha1.LocalSecretReference{Name: "missing", Key: "kubeconfig"}}}))
		h.create(finishedItem(MockType, func(di *lsv1alpha1.DeployItem) { di.Spec.Target.Name = "secret" }))
		if _, err := h.f.Reconciler().Reconcile(context.Background(), itemKey); err == nil {
			t.Error("want the resolve error")
		}
		di := h.get()
		if di.Status.JobID != "job-1" || di.Annotations[lsv1alpha1.OperationAnnotation] != string(lsv1alpha1.TestReconcileOperation) {
			t.Errorf("jobID %q, annotations %v; want job-1 and the annotation kept", di.Status.JobID, di.Annotations)
		}
	})
	t.Run("a missing Target fails the new job", func(t *testing.T) {
		h := newHarness(t, Mock{})
		h.create(finishedItem(MockType, func(di *lsv1alpha1.DeployItem) { di.Spec.Target.Name = "missing" }))
		h.run(0)
		di := h.get()
		if di.Status.JobID == "job-1" || di.Status.JobIDFinished != di.Status.JobID || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed ||
			di.Annotations[lsv1alpha1.OperationAnnotation] != "" {
			t.Errorf("status %+v, annotations %v; want a new Failed job, no annotation", di.Status, di.Annotations)
		}
		if want := []string{"+0s Failed"}; !equalStrings(h.trace, want) {
			t.Errorf("phases = %q, want %q", h.trace, want)
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFrameworkDeleteWithoutUninstallNeedsTheTarget: Landscaper's library
// fails an item whose Target does not exist before it looks at the
// item's delete-without-uninstall annotation (CheckResponsibility, then
// reconcilePrivate), so such a deletion fails (NoTargetFound) as any other.
func TestFrameworkDeleteWithoutUninstallNeedsTheTarget(t *testing.T) {
	h := newHarness(t, mustNotBeCalled(t))
	h.create(item(MockType, func(di *lsv1alpha1.DeployItem) {
		di.Spec.Target.Name = "missing"
		di.Status.Phase, di.Status.JobIDFinished = lsv1alpha1.DeployItemPhases.Succeeded, "job-1"
	}))
	h.deleteItem(lsv1alpha1.DeleteWithoutUninstallAnnotation)
	h.run(0)
	if want := []string{"+0s DeleteFailed"}; !equalStrings(h.trace, want) {
		t.Errorf("phases = %q, want %q", h.trace, want)
	}
	checkLastError(t, h.get().Status.LastError, &lsv1alpha1.Error{Reason: "NoTargetFound",
		Message: "setting deploy item to failed due to missing target"})
}

// TestFrameworkDeleteWithoutUninstallValidatesTheTarget: Landscaper's
// library validates the Target (ValidateTarget) in delete before it looks at
// the delete-without-uninstall annotation.
func TestFrameworkDeleteWithoutUninstallValidatesTheTarget(t *testing.T) {
	h := newHarness(t, mustNotBeCalled(t))
	kubeconfig := "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user: {tokenFile: /var/run/token}\n"
	cfg, err := json.Marshal(map[string]string{"kubeconfig": kubeconfig})
	h.must(err)
	h.must(h.cluster.Create(context.Background(), &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "tokenfile"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType, Configuration: lsv1alpha1.NewAnyJSONPointer(cfg)}}))
	h.create(item(MockType, func(di *lsv1alpha1.DeployItem) {
		di.Spec.Target.Name = "tokenfile"
		di.Status.Phase, di.Status.JobIDFinished = lsv1alpha1.DeployItemPhases.Succeeded, "job-1"
	}))
	h.deleteItem(lsv1alpha1.DeleteWithoutUninstallAnnotation)
	h.run(0)
	if want := []string{"+0s InitDelete", "+0s DeleteFailed"}; !equalStrings(h.trace, want) {
		t.Errorf("phases = %q, want %q", h.trace, want)
	}
	if e := h.get().Status.LastError; e == nil || e.Reason != "ValidateTarget" || e.Operation != opDelete {
		t.Errorf("lastError = %+v, want delete/ValidateTarget", e)
	}
}
