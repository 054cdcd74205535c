package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Warnings collects, for one run or one dry run, lscli's warnings about
// the input: what Landscaper does without a word and the author most
// likely did not mean (e.g. a blueprint file whose further YAML documents
// Landscaper ignores). Each text is kept once, in the order first warned;
// texts about objects (WarnAbout) that say the same of several objects, as
// of the installations that share a blueprint, are one warning naming them.
// They live in memory only and change no outcome. The zero value is empty
// and ready to use; a Warnings is safe for concurrent use.
type Warnings struct {
	mu      sync.Mutex
	entries []warning
	// index finds the entry of a text, and of a text's subjects.
	index map[warningKey]int
	named map[subjectKey]bool
}

// warning is one text and the objects it is about (none for a plain text).
type warning struct {
	noun     string
	subjects []string
	text     string
}

// warningKey is what makes warnings one: the text, the kind of object it is
// about ("" for a plain text).
type warningKey struct{ noun, text string }

// subjectKey is an object a warning names.
type subjectKey struct {
	entry   int
	subject string
}

// warningsKey is the context key of a run's Warnings.
type warningsKey struct{}

// WithWarnings returns ctx carrying w, where Warn records.
func WithWarnings(ctx context.Context, w *Warnings) context.Context {
	return context.WithValue(ctx, warningsKey{}, w)
}

// WarningsOf returns the Warnings ctx carries, or nil.
func WarningsOf(ctx context.Context) *Warnings {
	w, _ := ctx.Value(warningsKey{}).(*Warnings)
	return w
}

// Warn records text in the Warnings of ctx (see WithWarnings), unless it
// is there already; without Warnings in ctx nothing is recorded.
func Warn(ctx context.Context, text string) {
	WarningsOf(ctx).Add(text)
}

// WarnAbout records text about subject, an object of kind noun ("installation",
// named "namespace/name"), in the Warnings of ctx: the same text about
// other objects of the kind is one warning, which names them sorted
// ("installations a, b, c and 2 more: text").
func WarnAbout(ctx context.Context, noun, subject, text string) {
	WarningsOf(ctx).add(warning{noun: noun, subjects: []string{subject}, text: text})
}

// Add records the texts not recorded yet, in their order (a nil w records
// nothing).
func (w *Warnings) Add(texts ...string) {
	for _, t := range texts {
		w.add(warning{text: t})
	}
}

// Merge records the warnings of other after those of w, as if they had
// been warned to w in their order (a nil w records nothing).
func (w *Warnings) Merge(other *Warnings) {
	if other == nil {
		return
	}
	other.mu.Lock()
	entries := slices.Clone(other.entries)
	other.mu.Unlock()
	for _, e := range entries {
		w.add(e)
	}
}

// add records e: its subjects join those of the same text about the same
// kind of object; a plain text (noun "") is kept once.
func (w *Warnings) add(e warning) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.index == nil {
		w.index, w.named = map[warningKey]int{}, map[subjectKey]bool{}
	}
	k := warningKey{noun: e.noun, text: e.text}
	i, ok := w.index[k]
	if !ok {
		i = len(w.entries)
		w.index[k] = i
		w.entries = append(w.entries, warning{noun: e.noun, text: e.text})
	}
	for _, s := range e.subjects {
		if sk := (subjectKey{i, s}); !w.named[sk] {
			w.named[sk] = true
			w.entries[i].subjects = append(w.entries[i].subjects, s)
		}
	}
}

// maxSubjects is how many objects a warning names before "and N more".
const maxSubjects = 3

// All returns the texts in the order first warned (nil for a nil w), each
// text about objects after the objects it is about.
func (w *Warnings) All() []string {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, e := range w.entries {
		out = append(out, e.String())
	}
	return out
}

// String is the warning as All gives it, its subjects sorted, so that the
// text does not depend on the order a run came across them.
func (e warning) String() string {
	e.subjects = slices.Sorted(slices.Values(e.subjects))
	switch n := len(e.subjects); {
	case n == 0:
		return e.text
	case n == 1:
		return fmt.Sprintf("%s %s: %s", e.noun, e.subjects[0], e.text)
	case n <= maxSubjects:
		return fmt.Sprintf("%ss %s and %s: %s", e.noun, strings.Join(e.subjects[:n-1], ", "), e.subjects[n-1], e.text)
	default:
		return fmt.Sprintf("%ss %s and %d more: %s", e.noun, strings.Join(e.subjects[:maxSubjects], ", "), n-maxSubjects, e.text)
	}
}
