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

// TestWarningsGroupSubjects: warnings that differ only in the object they
// are about are one warning naming the objects, three of them and how many
// more, in the order warned; a merge keeps that order.
func TestWarningsGroupSubjects(t *testing.T) {
	var w Warnings
	ctx := WithWarnings(context.Background(), &w)
	WarnAbout(ctx, "installation", "ns/a", "blueprint x: 1 more document")
	Warn(ctx, "plain")
	WarnAbout(ctx, "installation", "ns/b", "blueprint x: 1 more document")
	WarnAbout(ctx, "installation", "ns/a", "blueprint x: 1 more document")
	WarnAbout(ctx, "installation", "ns/c", "blueprint y: 2 more documents")
	want := []string{
		"installations ns/a and ns/b: blueprint x: 1 more document",
		"plain",
		"installation ns/c: blueprint y: 2 more documents",
	}
	if got := w.All(); !slices.Equal(got, want) {
		t.Errorf("All() = %q, want %q", got, want)
	}

	var many, part1, part2 Warnings
	for i, name := range []string{"ns/a", "ns/b", "ns/c", "ns/d", "ns/e"} {
		WarnAbout(WithWarnings(ctx, &many), "installation", name, "same")
		part := &part1
		if i >= 2 {
			part = &part2
		}
		WarnAbout(WithWarnings(ctx, part), "installation", name, "same")
	}
	want = []string{"installations ns/a, ns/b, ns/c and 2 more: same"}
	if got := many.All(); !slices.Equal(got, want) {
		t.Errorf("All() = %q, want %q", got, want)
	}
	var merged Warnings
	merged.Merge(&part1)
	merged.Merge(&part2)
	if got := merged.All(); !slices.Equal(got, want) {
		t.Errorf("merged All() = %q, want %q", got, want)
	}
}
