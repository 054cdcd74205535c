package output

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// Relation is an object related to the one Describe shows, and how.
type Relation struct {
	// Role says how it relates, e.g. "owner", "execution", "deploy item".
	Role   string
	Object fakecluster.Object
}

// Describe shows one object as `kubectl describe` does: a "Key: value"
// header (name, namespace, kind, labels, annotations, generation), for the
// kinds with a phase the status (phase, job IDs, last error, a deploy
// item's first error where it differs, conditions),
// then the related objects with their phases and the object's events,
// oldest first. It is a pure function.
func Describe(obj fakecluster.Object, related []Relation, events []state.Event, st Styles) string {
	var b strings.Builder
	field := func(key, val string) { b.WriteString(header(key, st) + val + "\n") }
	field("Name", obj.GetName())
	field("Namespace", orDash(obj.GetNamespace()))
	field("Kind", kindOf(obj))
	field("Labels", keyValues(obj.GetLabels()))
	field("Annotations", keyValues(obj.GetAnnotations()))
	if s, ok := statusOf(obj); ok {
		field("Generation", fmt.Sprintf("%d (observed %d)", obj.GetGeneration(), s.observedGeneration))
		field("Phase", st.Phase(orDash(s.phase)))
		field("Job ID", orDash(s.jobID))
		field("Job finished", orDash(s.jobIDFinished)+jobState(s))
		describeError(&b, "Last error", s.lastError, st)
		if e := s.otherFirstError(); e != nil {
			describeError(&b, "First error", e, st)
		}
		describeConditions(&b, conditionsOf(obj), st)
	}
	if obj.GetDeletionTimestamp() != nil {
		field("Deleting", "since "+obj.GetDeletionTimestamp().UTC().Format(time.RFC3339))
	}
	b.WriteString(st.Bold("Related:") + "\n")
	if len(related) == 0 {
		b.WriteString("  <none>\n")
	} else {
		t := &table{header: []string{"ROLE", "KIND", "NAMESPACE/NAME", "PHASE"}}
		for _, r := range related {
			s, _ := statusOf(r.Object)
			t.rows = append(t.rows, []cell{plain(r.Role), plain(kindOf(r.Object)), plain(qualifiedName(r.Object)),
				{text: orDash(s.phase), style: Styles.Phase}})
		}
		b.WriteString(indent(t.render(st)))
	}
	b.WriteString(st.Bold("Events:") + "\n")
	if len(events) == 0 {
		b.WriteString("  <none>\n")
	} else {
		t := &table{header: []string{"TIME", "TYPE", "DETAIL"}}
		for _, e := range oldestFirst(events) {
			t.rows = append(t.rows, []cell{plain(e.Time.UTC().Format(time.RFC3339)), plain(string(e.Type)), eventDetail(e)})
		}
		b.WriteString(indent(t.render(st)))
	}
	return b.String()
}

// header is "Key:" in bold, padded to the column of the values.
func header(key string, st Styles) string {
	return st.Bold(key+":") + strings.Repeat(" ", max(1, 14-len(key)-1))
}

// jobState says whether the object's job is running.
func jobState(s status) string {
	if s.running() {
		return " (running)"
	}
	return ""
}

// describeError writes the section of an error under title: "Last error",
// or a deploy item's "First error" (of its job, kept while later errors
// replace the last one).
func describeError(b *strings.Builder, title string, e *lsv1alpha1.Error, st Styles) {
	if e == nil {
		b.WriteString(header(title, st) + "<none>\n")
		return
	}
	b.WriteString(st.Bold(title+":") + "\n")
	fmt.Fprintf(b, "  Operation:  %s\n", orDash(e.Operation))
	fmt.Fprintf(b, "  Reason:     %s\n", orDash(e.Reason))
	// a message's later lines line up under its first; a message that
	// starts with a newline (helm's log lines) leaves no trailing blanks
	first, rest, more := strings.Cut(orDash(e.Message), "\n")
	b.WriteString(strings.TrimRight("  Message:    "+first, " "))
	if more {
		b.WriteString("\n              " + strings.ReplaceAll(rest, "\n", "\n              "))
	}
	b.WriteString("\n")
	if len(e.Codes) > 0 {
		codes := make([]string, len(e.Codes))
		for i, c := range e.Codes {
			codes[i] = string(c)
		}
		fmt.Fprintf(b, "  Codes:      %s\n", strings.Join(codes, ", "))
	}
	fmt.Fprintf(b, "  Updated:    %s\n", e.LastUpdateTime.UTC().Format(time.RFC3339))
}

// describeConditions writes the Conditions section.
func describeConditions(b *strings.Builder, conds []lsv1alpha1.Condition, st Styles) {
	b.WriteString(st.Bold("Conditions:") + "\n")
	if len(conds) == 0 {
		b.WriteString("  <none>\n")
		return
	}
	t := &table{header: []string{"TYPE", "STATUS", "REASON", "MESSAGE"}}
	for _, c := range conds {
		t.rows = append(t.rows, []cell{plain(string(c.Type)), plain(string(c.Status)), plain(orDash(c.Reason)), plain(orDash(c.Message))})
	}
	b.WriteString(indent(t.render(st)))
}

// conditionsOf returns the status conditions of the kinds that have them.
func conditionsOf(obj fakecluster.Object) []lsv1alpha1.Condition {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		return o.Status.Conditions
	case *lsv1alpha1.Execution:
		return o.Status.Conditions
	case *lsv1alpha1.DeployItem:
		return o.Status.Conditions
	}
	return nil
}

// keyValues shows a map as k=v, sorted, one a line after the first;
// <none> when empty.
func keyValues(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		lines = append(lines, k+"="+m[k])
	}
	return strings.Join(lines, "\n              ")
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return "  " + strings.Join(lines, "\n  ") + "\n"
}
