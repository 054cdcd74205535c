package output

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// timedOut is a deploy item whose job ended in Failed with last and first
// errors: the last one a timeout when timeout is set.
func timedOut(name, last, first string, timeout bool) *lsv1alpha1.DeployItem {
	root := inst("example", "app", lsv1alpha1.InstallationPhases.Failed, "j1", "j1")
	exec := execOf(root, lsv1alpha1.ExecutionPhases.Failed, "j1", "j1")
	di := itemOf(exec, name, lsv1alpha1.DeployItemPhases.Failed, "j1", "j1")
	di.Status.LastError = lastError(last)
	if timeout {
		di.Status.LastError.Codes = []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}
	}
	if first != "" {
		di.Status.FirstError = lastError(first)
	}
	return di
}

// TestTreeShowsTheCauseATimeoutMasked: a deploy item whose job a timeout
// ended shows its first error under the last one, which says why; a first
// error that the last error is, or that a later error replaced without a
// timeout, is not repeated.
func TestTreeShowsTheCauseATimeoutMasked(t *testing.T) {
	const cause = "chart \"registry.example.com/app:1.0.0\" is not available locally"
	tests := []struct {
		name string
		di   *lsv1alpha1.DeployItem
		want bool
	}{
		{"timeout after another error", timedOut("a", `timeout at: "helm deployer: start reconcile"`, cause, true), true},
		{"timeout first and last", timedOut("b", "timeout", "timeout", true), false},
		{"a later error without timeout", timedOut("c", "apply failed", cause, false), false},
		{"no first error", timedOut("d", "timeout", "", true), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tree([]fakecluster.Object{tt.di}, plainStyles(), TreeOptions{})
			if has := containsLine(got, "First error: "+cause); has != tt.want {
				t.Errorf("first error shown: %v, want %v:\n%s", has, tt.want, got)
			}
			if tt.want && !strings.Contains(got, "Last error: "+tt.di.Status.LastError.Message+"\nFirst error: ") {
				t.Errorf("the first error does not follow the last one:\n%s", got)
			}
			if !tt.want && strings.Contains(got, "First error") {
				t.Errorf("first error shown:\n%s", got)
			}
		})
	}
}

// TestDescribeFirstError: describe shows a deploy item's first error as a
// section of its own after the last error when the two differ, and not
// when they are the same error.
func TestDescribeFirstError(t *testing.T) {
	differ := Describe(timedOut("a", "timeout", "chart missing", true), nil, nil, plainStyles())
	if !strings.Contains(differ, "Last error:\n  Operation:  Reconcile\n  Reason:     Failed\n  Message:    timeout\n  Codes:      ERR_TIMEOUT\n") ||
		!strings.Contains(differ, "First error:\n  Operation:  Reconcile\n  Reason:     Failed\n  Message:    chart missing\n  Updated:    ") {
		t.Errorf("describe of differing errors:\n%s", differ)
	}
	if same := Describe(timedOut("b", "timeout", "timeout", true), nil, nil, plainStyles()); strings.Contains(same, "First error") {
		t.Errorf("describe repeats the last error as the first:\n%s", same)
	}
	if none := Describe(timedOut("c", "timeout", "", true), nil, nil, plainStyles()); strings.Contains(none, "First error") {
		t.Errorf("describe shows a first error the item has not:\n%s", none)
	}
}

// TestDescribeMultiLineMessage: the lines of a message line up under its
// first, and one that starts with a newline (a failed helm release's log
// lines) leaves no blanks at the end of the Message line.
func TestDescribeMultiLineMessage(t *testing.T) {
	got := Describe(timedOut("a", "\ncreating 1 resource(s)\nOp: InstallHelmRelease", "", false), nil, nil, plainStyles())
	want := "  Message:\n              creating 1 resource(s)\n              Op: InstallHelmRelease\n"
	if !strings.Contains(got, want) {
		t.Errorf("describe of a message that starts with a newline:\n%s\nwant it to contain:\n%s", got, want)
	}
	got = Describe(timedOut("b", "first\nsecond", "", false), nil, nil, plainStyles())
	if want := "  Message:    first\n              second\n"; !strings.Contains(got, want) {
		t.Errorf("describe of a two-line message:\n%s\nwant it to contain:\n%s", got, want)
	}
}
