package action_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lscli/lscli/action"
)

// actionConfigFixture returns a configuration over a new state folder.
func actionConfigFixture(t *testing.T) *action.Configuration {
	t.Helper()
	return &action.Configuration{StatePath: filepath.Join(t.TempDir(), ".lscli"), Seed: 1}
}

// landscapeFile writes one root installation whose blueprint renders a mock
// deploy item with the given mock configuration, and returns its path.
func landscapeFile(t *testing.T, name, mock string) string {
	t.Helper()
	doc := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: ` + name + `, namespace: test}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems:
              - name: item
                type: landscaper.gardener.cloud/mock
                config: ` + mock + "\n"
	p := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReconcileExitCodes checks the exit code each outcome of a reconcile
// stands for.
func TestReconcileExitCodes(t *testing.T) {
	tests := []struct {
		name string
		mock string
		opts action.RunOptions
		want int
	}{
		{name: "succeeded", mock: "{}", want: action.ExitOK},
		{name: "failed", mock: "{phase: Failed}", want: action.ExitFailed},
		{name: "never finishes", mock: "{phase: Progressing}", want: action.ExitUnfinished},
		{name: "stopped by max steps", mock: "{}", opts: action.RunOptions{MaxSteps: 3}, want: action.ExitUnfinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := action.NewReconcile(actionConfigFixture(t))
			a.Paths, a.RunOptions = []string{landscapeFile(t, "app", tt.mock)}, tt.opts
			res, err := a.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := res.ExitCode(); got != tt.want {
				t.Errorf("exit code %d, want %d (roots %+v)", got, tt.want, res.Assessment.Roots)
			}
		})
	}
}

// TestInvalidInputChangesNothing: input that does not load is exit 2 and
// leaves no state behind.
func TestInvalidInputChangesNothing(t *testing.T) {
	cfg := actionConfigFixture(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := action.NewReconcile(cfg)
	a.Paths = []string{bad}
	_, err := a.Run(context.Background())
	if got := action.ExitCodeOf(err); got != action.ExitInvalid {
		t.Fatalf("exit code %d (%v), want %d", got, err, action.ExitInvalid)
	}
	if _, err := os.Stat(filepath.Join(cfg.StatePath, "state.json")); !os.IsNotExist(err) {
		t.Errorf("invalid input wrote a state: %v", err)
	}
}

// TestOperatorExitCodes runs the operator actions on a saved landscape.
func TestOperatorExitCodes(t *testing.T) {
	ctx := context.Background()
	cfg := actionConfigFixture(t)
	rec := action.NewReconcile(cfg)
	rec.Paths = []string{landscapeFile(t, "app", "{phase: Progressing}")}
	if _, err := rec.Run(ctx); err != nil {
		t.Fatal(err)
	}

	unknown := action.NewInterrupt(cfg)
	unknown.Name = "nosuch"
	if _, err := unknown.Run(ctx); action.ExitCodeOf(err) != action.ExitInvalid {
		t.Errorf("interrupt of an unknown name: %v, want exit %d", err, action.ExitInvalid)
	}

	in := action.NewInterrupt(cfg)
	in.Name = "app"
	res, err := in.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.ExitCode(); got != action.ExitFailed {
		t.Errorf("interrupt: exit code %d, want %d (the interrupted item fails its root)", got, action.ExitFailed)
	}

	del := action.NewDelete(cfg)
	del.Name = "app"
	if res, err = del.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if got := res.ExitCode(); got != action.ExitOK || res.Assessment.Roots[0].Outcome != action.OutcomeGone {
		t.Errorf("delete: exit code %d, roots %+v; want %d and the root gone", got, res.Assessment.Roots, action.ExitOK)
	}
}

// TestExitCodeOf maps errors to exit codes.
func TestExitCodeOf(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want int
	}{
		{nil, action.ExitOK},
		{action.Invalidf("bad %s", "input"), action.ExitInvalid},
		{action.SilentExit(action.ExitFailed), action.ExitFailed},
		{action.SilentExit(action.ExitOK), action.ExitOK},
		{os.ErrPermission, action.ExitBug},
	} {
		if got := action.ExitCodeOf(tt.err); got != tt.want {
			t.Errorf("ExitCodeOf(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
