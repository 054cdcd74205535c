package dataflow

import (
	"errors"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/reconcile"
)

func TestForStatus(t *testing.T) {
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
		st := ForStatus(c.err)
		if got := st.Error(); got != c.want {
			t.Errorf("ForStatus = %q, want %q", got, c.want)
		}
		if !errors.Is(st, c.err) || reconcile.IsTerminal(st) != reconcile.IsTerminal(c.err) {
			t.Errorf("ForStatus(%q) does not wrap the error", c.full)
		}
	}
	if ForStatus(nil) != nil {
		t.Error("ForStatus(nil) != nil")
	}
}
