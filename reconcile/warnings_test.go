package reconcile

import (
	"context"
	"slices"
	"testing"
)

func TestWarningsOnceInOrder(t *testing.T) {
	var w Warnings
	ctx := WithWarnings(context.Background(), &w)
	Warn(ctx, "b")
	Warn(ctx, "a")
	Warn(ctx, "b")
	w.Add("c", "a")
	if got, want := w.All(), []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("All() = %q, want %q", got, want)
	}
	Warn(context.Background(), "nowhere") // no Warnings: nothing happens
	if WarningsOf(context.Background()).All() != nil {
		t.Error("a context without Warnings has warnings")
	}
}
