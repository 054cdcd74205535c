package reconcile

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// A failed step whose error Landscaper words otherwise is remembered with
// lscli's text, for the object, its job and the lastError it wrote; an
// error whose status text is its Error() text, or says everything lscli's
// does but the object's name, is not.
func TestExplainRecords(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	key := types.NamespacedName{Namespace: "default", Name: "r"}
	const long = `installation default/r: Context "nope" not found in namespace default: add it to the landscape`
	const short = `contexts.landscaper.gardener.cloud "nope" not found`
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"worded", Fatal(Wrap(&worded{long, short}, "InitPrerequisites", "CalculateContext")), long},
		{"worded in %w", fmt.Errorf("init: %w", &worded{long, short}), long},
		{"joined", errors.Join(errors.New("first"), &worded{long, short}), long},
		{"plain", Fatal(errors.New("it failed")), ""},
		{"same text", &worded{"it failed", "it failed"}, ""},
		{"only the name", &worded{"installation default/r: it failed", "it failed"}, ""},
		{"only the name, under a prefix", Wrap(&worded{"installation default/r: it failed", "Landscaper says: it failed"}, "Op", "R"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var x Explanations
			ctx := WithExplanations(context.Background(), &x)
			le := LastError(nil, tt.err, "Init", "Init", now)
			Explain(ctx, "Installation", key, "job1", le, tt.err)
			if got := x.Lookup("Installation", key, "job1", le.Message); got != tt.want {
				t.Fatalf("Lookup = %q, want %q", got, tt.want)
			}
			if tt.want == "" {
				if n := len(x.All()); n != 0 {
					t.Fatalf("recorded %d explanations, want none", n)
				}
				return
			}
			// Another job, another object or another lastError has none.
			for _, miss := range []struct {
				kind    string
				key     types.NamespacedName
				job     string
				message string
			}{
				{"Installation", key, "job2", le.Message},
				{"Execution", key, "job1", le.Message},
				{"Installation", types.NamespacedName{Namespace: "default", Name: "s"}, "job1", le.Message},
				{"Installation", key, "job1", "something else"},
			} {
				if got := x.Lookup(miss.kind, miss.key, miss.job, miss.message); got != "" {
					t.Errorf("Lookup(%+v) = %q, want none", miss, got)
				}
			}
			want := []Explanation{{Kind: "Installation", Key: key, JobID: "job1", Message: le.Message, Text: tt.want}}
			if got := x.All(); len(got) != 1 || got[0] != want[0] {
				t.Errorf("All = %+v, want %+v", got, want)
			}
		})
	}
}

// A later failure of the object replaces what an earlier one recorded;
// a context without Explanations records nothing, and a nil Explanations
// looks nothing up.
func TestExplainReplacesAndIsOptional(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	key := types.NamespacedName{Namespace: "default", Name: "r"}
	var x Explanations
	ctx := WithExplanations(context.Background(), &x)
	first := &worded{"installation default/r: first, with advice", "first"}
	second := &worded{"installation default/r: second, with advice", "second"}
	Explain(ctx, "Installation", key, "job1", LastError(nil, first, "Init", "Init", now), first)
	Explain(ctx, "Installation", key, "job2", LastError(nil, second, "Init", "Init", now), second)
	if got := x.All(); len(got) != 1 || got[0].Text != second.long || got[0].JobID != "job2" {
		t.Fatalf("All = %+v, want only the second", got)
	}
	Explain(context.Background(), "Installation", key, "job1", LastError(nil, first, "Init", "Init", now), first)
	var none *Explanations
	if got := none.Lookup("Installation", key, "job1", "first"); got != "" {
		t.Fatalf("nil Lookup = %q", got)
	}
}

// Recording a failure without a status text of its own allocates nothing.
func TestExplainPlainErrorAllocatesNothing(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	key := types.NamespacedName{Namespace: "default", Name: "r"}
	var x Explanations
	ctx := WithExplanations(context.Background(), &x)
	err := Fatal(Wrap(errors.New("it failed"), "Op", "R"))
	le := LastError(nil, err, "Init", "Init", now)
	if n := testing.AllocsPerRun(100, func() { Explain(ctx, "Installation", key, "job1", le, err) }); n != 0 {
		t.Fatalf("Explain allocates %v times, want 0", n)
	}
}

// Retain keeps the explanations keep says yes to.
func TestExplanationsRetain(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var x Explanations
	ctx := WithExplanations(context.Background(), &x)
	for _, name := range []string{"a", "b"} {
		err := &worded{"installation default/" + name + ": with advice", "short"}
		Explain(ctx, "Installation", types.NamespacedName{Namespace: "default", Name: name}, "job1", LastError(nil, err, "Init", "Init", now), err)
	}
	x.Retain(func(e Explanation) bool { return e.Key.Name == "b" })
	if got := x.All(); len(got) != 1 || got[0].Key.Name != "b" {
		t.Fatalf("All = %+v, want only b", got)
	}
	var none *Explanations
	none.Retain(func(Explanation) bool { return false })
}
