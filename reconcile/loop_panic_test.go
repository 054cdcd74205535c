package reconcile_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/reconcile"
)

// TestLoopStopsOnPanic: a panic in a reconciler, or an error carrying a
// recovered one, stops the run with an error naming the controller and the
// object; the other items are not run.
func TestLoopStopsOnPanic(t *testing.T) {
	tests := []struct {
		name      string
		r         reconcile.Func
		component string
		msg       string
	}{
		{name: "lscli's own panic", component: crash.Own, msg: "lscli panicked: boom",
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) { panic("boom") }},
		{name: "recovered third-party panic", component: "spiff", msg: "c controller, ns/x: spiff panicked: deep",
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) {
				return reconcile.Result{}, fmt.Errorf("render: %w", &crash.Error{Component: "spiff", Value: "deep"})
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, _ := newLoop()
			l.Register("c", tt.r)
			l.Enqueue("c", key)
			res, err := l.Run(context.Background(), reconcile.RunOptions{})
			ce := crash.As(err)
			if ce == nil || ce.Component != tt.component {
				t.Fatalf("err = %v, want a crash of %s", err, tt.component)
			}
			if !strings.HasPrefix(err.Error(), "c controller, ns/x: ") || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q does not name the controller, object and panic", err)
			}
			if res.Steps != 1 {
				t.Errorf("ran %d steps, want 1", res.Steps)
			}
		})
	}
}

// TestRecoveredPanicsAreNeverTerminal: however a recovered panic is
// wrapped, also in a terminal error, it is not terminal: it must stop the
// run, not fail the object.
func TestRecoveredPanicsAreNeverTerminal(t *testing.T) {
	err := reconcile.Fatal(fmt.Errorf("render: %w", &crash.Error{Component: "spiff", Value: "x"}))
	if reconcile.IsTerminal(err) {
		t.Fatal("a recovered panic wrapped in a fatal error is terminal")
	}
}
