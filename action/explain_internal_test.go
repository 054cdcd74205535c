package action

import (
	"context"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// A run's report keeps lscli's text only of lastErrors that are still
// there: an installation that went on to another error, another job or
// none, or that is gone, loses it.
func TestCurrentExplanations(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := fakecluster.New(fakecluster.Options{})
	add := func(name, jobID, message string) {
		inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
		if err := c.Create(ctx, inst); err != nil {
			t.Fatal(err)
		}
		inst.Status.JobID = jobID
		if message != "" {
			inst.Status.LastError = &lsv1alpha1.Error{Message: message}
		}
		if err := c.UpdateStatus(ctx, inst); err != nil {
			t.Fatal(err)
		}
	}
	add("same", "job1", "short")
	add("other-error", "job1", "something else")
	add("other-job", "job2", "short")
	add("no-error", "job1", "")
	var x reconcile.Explanations
	rctx := reconcile.WithExplanations(ctx, &x)
	for _, name := range []string{"same", "other-error", "other-job", "no-error", "gone"} {
		err := &explained{long: "installation default/" + name + ": with advice", short: "short"}
		reconcile.Explain(rctx, "Installation", types.NamespacedName{Namespace: "default", Name: name}, "job1",
			reconcile.LastError(nil, err, "Init", "Init", now), err)
	}
	got, err := currentExplanations(ctx, c, &x)
	if err != nil {
		t.Fatal(err)
	}
	if all := got.All(); len(all) != 1 || all[0].Key.Name != "same" {
		t.Fatalf("explanations = %+v, want only same's", all)
	}
	if got, err := currentExplanations(ctx, c, &reconcile.Explanations{}); got != nil || err != nil {
		t.Fatalf("no explanations: %v, %v, want nil", got, err)
	}
}
