//go:build unix

package action_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/state"
)

// TestReadsWaitForARunningCommand: a get while another lscli holds the
// lock (a reconcile running) waits for it, says so, and then reads.
func TestReadsWaitForARunningCommand(t *testing.T) {
	cfg := actionConfigFixture(t)
	r := action.NewReconcile(cfg)
	r.Paths = []string{landscapeFile(t, "app", "{}")}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	release, err := state.New(cfg.StatePath).Lock()
	if err != nil {
		t.Fatal(err)
	}
	waited := 0
	cfg.LockTimeout = time.Minute
	cfg.OnLockWait = func(string) {
		waited++
		_ = release() // the running command ends while get waits
	}
	objs, err := action.NewGet(cfg).Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if waited != 1 || len(objs) == 0 {
		t.Errorf("waited %d times, read %d objects; want 1 wait and the objects", waited, len(objs))
	}
}

// TestCommandsOnNoStateCreateNothing: reading commands, and those refused
// because the state holds nothing to act on, leave a fresh folder as it was.
func TestCommandsOnNoStateCreateNothing(t *testing.T) {
	cfg := actionConfigFixture(t)
	ctx := context.Background()
	if _, err := action.NewGet(cfg).Run(ctx, nil); !errors.Is(err, state.ErrNoState) {
		t.Fatalf("get: %v, want no state", err)
	}
	if _, err := action.NewTree(cfg).Run(ctx, ""); !errors.Is(err, state.ErrNoState) {
		t.Fatalf("tree: %v, want no state", err)
	}
	if _, err := action.NewEvents(cfg).Run(ctx); !errors.Is(err, state.ErrNoState) {
		t.Fatalf("events: %v, want no state", err)
	}
	del := action.NewDelete(cfg)
	del.Name = "nosuch"
	if _, err := del.Run(ctx); action.ExitCodeOf(err) != action.ExitInvalid {
		t.Fatalf("delete nosuch: %v, want invalid input", err)
	}
	if err := action.NewReset(cfg).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.StatePath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the state folder was created: %v", err)
	}
}
