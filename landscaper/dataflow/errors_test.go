package dataflow

import (
	"errors"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/reconcile"
)

// The status text of an error about an installation is without the
// installation's name and with Landscaper's message, however it is
// wrapped.
func TestInstallationErrorStatusText(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	cause := errors.New("boom")
	inner := failWrap(inst, ReasonTemplatingFailed, cause, "exportExecution %q", "x")
	ie := about(inst, nil, "advised (do this)")
	ie.Landscaper = "advised"
	for _, c := range []struct {
		err        error
		full, want string
	}{
		{inner, `installation ns/a: exportExecution "x": boom`, `exportExecution "x": boom`},
		{fmt.Errorf("outer: %w", inner), `outer: installation ns/a: exportExecution "x": boom`, `outer: exportExecution "x": boom`},
		{&TemplatesInvalidError{err: reconcile.TerminalWithCodes(ie, ReasonSubinstallations)}, "installation ns/a: advised (do this)", "advised"},
		{cause, "boom", "boom"},
	} {
		if got := c.err.Error(); got != c.full {
			t.Errorf("Error() = %q, want %q", got, c.full)
		}
		if got := reconcile.StatusText(c.err); got != c.want {
			t.Errorf("reconcile.StatusText = %q, want %q", got, c.want)
		}
	}
}
