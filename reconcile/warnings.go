package reconcile

import (
	"context"
	"slices"
	"sync"
)

// Warnings collects, for one run or one dry run, lscli's warnings about
// the input: what Landscaper does without a word and the author most
// likely did not mean (e.g. a blueprint file whose further YAML documents
// Landscaper ignores). Each text is kept once, in the order first warned.
// They live in memory only and change no outcome. The zero value is empty
// and ready to use; a Warnings is safe for concurrent use.
type Warnings struct {
	mu    sync.Mutex
	texts []string
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

// Add records the texts not recorded yet, in their order (a nil w records
// nothing).
func (w *Warnings) Add(texts ...string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, t := range texts {
		if !slices.Contains(w.texts, t) {
			w.texts = append(w.texts, t)
		}
	}
}

// All returns the texts in the order first warned (nil for a nil w).
func (w *Warnings) All() []string {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.texts)
}
