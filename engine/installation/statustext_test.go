package installation

import (
	"context"
	"errors"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/dataflow"
)

// An error of package dataflow that a phase returns as it is, with no
// wrapper of the controller's, gets Landscaper's text in the installation's
// status (the status text of dataflow.InstallationError, see
// reconcile.StatusText): no call site has to remember to translate it.
func TestUnwrappedDataflowErrorGetsStatusText(t *testing.T) {
	f := newFixture(t)
	f.Create(inst("x", status(phases.Init, job1, ""), func(i *lsv1alpha1.Installation) { i.Spec.Context = "missing" }))
	c := New(*f.cfg)
	var returned error
	c.machine.Run = func(ctx context.Context, x *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
		returned = dataflow.CheckContext(ctx, f.Cluster, x)
		return "", returned
	}
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	var ie *dataflow.InstallationError
	if !errors.As(returned, &ie) {
		t.Fatalf("CheckContext returned %v, want a dataflow.InstallationError", returned)
	}
	x := f.Installation("x")
	if x.Status.InstallationPhase != phases.Failed {
		t.Errorf("phase = %s, want %s", x.Status.InstallationPhase, phases.Failed)
	}
	le := x.Status.LastError
	if le == nil || le.Message != ie.StatusText() {
		t.Fatalf("lastError = %+v, want the message %q", le, ie.StatusText())
	}
	if strings.Contains(le.Message, "installation "+testNS+"/x") || !strings.Contains(returned.Error(), "installation "+testNS+"/x: ") {
		t.Errorf("lastError.message %q names the installation, or the error %q does not", le.Message, returned.Error())
	}
}
