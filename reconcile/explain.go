package reconcile

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
)

// Explanation is lscli's own text of the error that failed an object's
// step, where the object's status has Landscaper's words for it (see
// StatusTexter): lscli's names the object and often says what to do. The
// status must stay Landscaper's; a run's report shows the explanation
// under the lastError it explains.
type Explanation struct {
	// Kind is the object's kind, e.g. Installation.
	Kind string
	Key  types.NamespacedName
	// JobID is the job the step failed in.
	JobID string
	// Message is the status.lastError.message the error became.
	Message string
	// Text is lscli's text of the error.
	Text string
}

// explainKey names one object among the explanations.
type explainKey struct {
	kind string
	key  types.NamespacedName
}

// Explanations holds, for one run, the newest Explanation of each object
// whose step failed with an error Landscaper words otherwise. It lives in
// memory only. The zero value is empty and ready to use.
type Explanations struct {
	byObject map[explainKey]Explanation
}

// explanationsKey is the context key of a run's Explanations.
type explanationsKey struct{}

// WithExplanations returns ctx carrying x, where Explain records.
func WithExplanations(ctx context.Context, x *Explanations) context.Context {
	return context.WithValue(ctx, explanationsKey{}, x)
}

// Explain records in the Explanations of ctx (see WithExplanations) lscli's
// text of err, which failed the job jobID of the object kind/key and became
// its lastError le: the Error() text of each outermost StatusTexter in
// err's chain whose text says more than le's message does (the object's
// name, which lscli's errors start with, apart). Without Explanations in
// ctx, without a StatusTexter in err's chain, or when le says it all,
// nothing is recorded; err without a StatusTexter costs no allocation.
func Explain(ctx context.Context, kind string, key types.NamespacedName, jobID string, le *lsv1alpha1.Error, err error) {
	if err == nil || le == nil || !hasStatusTexter(err) {
		return
	}
	x, _ := ctx.Value(explanationsKey{}).(*Explanations)
	if x == nil {
		return
	}
	name := strings.ToLower(kind) + " " + key.Namespace + "/" + key.Name + ": "
	var texts []string
	for _, st := range outermostStatusTexters(err, nil) {
		text := st.Error()
		if text == st.StatusText() || strings.Contains(le.Message, strings.TrimPrefix(text, name)) || slices.Contains(texts, text) {
			continue
		}
		texts = append(texts, text)
	}
	if len(texts) == 0 {
		return
	}
	if x.byObject == nil {
		x.byObject = map[explainKey]Explanation{}
	}
	x.byObject[explainKey{kind, key}] = Explanation{Kind: kind, Key: key, JobID: jobID, Message: le.Message,
		Text: strings.Join(texts, "; ")}
}

// Lookup returns lscli's text of the lastError message of the object
// kind/key in job jobID, or "" when the run recorded none for it (also
// for a nil x).
func (x *Explanations) Lookup(kind string, key types.NamespacedName, jobID, message string) string {
	if x == nil {
		return ""
	}
	e, ok := x.byObject[explainKey{kind, key}]
	if !ok || e.JobID != jobID || e.Message != message {
		return ""
	}
	return e.Text
}

// Len returns how many objects have an explanation (0 for a nil x).
func (x *Explanations) Len() int {
	if x == nil {
		return 0
	}
	return len(x.byObject)
}

// Retain drops the explanations keep says no to (a nil x has none).
func (x *Explanations) Retain(keep func(Explanation) bool) {
	if x == nil {
		return
	}
	for k, e := range x.byObject {
		if !keep(e) {
			delete(x.byObject, k)
		}
	}
}

// All returns the explanations, sorted by kind, namespace and name.
func (x *Explanations) All() []Explanation {
	if x == nil {
		return nil
	}
	all := make([]Explanation, 0, len(x.byObject))
	for _, e := range x.byObject {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b Explanation) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Key.Namespace, b.Key.Namespace), cmp.Compare(a.Key.Name, b.Key.Name))
	})
	return all
}

// hasStatusTexter reports whether err's chain (see walkChain) holds a
// StatusTexter, without allocating.
func hasStatusTexter(err error) bool {
	for err != nil {
		if _, ok := err.(StatusTexter); ok {
			return true
		}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range u.Unwrap() {
				if hasStatusTexter(e) {
					return true
				}
			}
			return false
		}
		err = errors.Unwrap(err)
	}
	return false
}

// outermostStatusTexters appends to out the StatusTexters of err's chain
// that no other StatusTexter of it wraps, outermost first.
func outermostStatusTexters(err error, out []StatusTexter) []StatusTexter {
	for err != nil {
		if st, ok := err.(StatusTexter); ok {
			return append(out, st)
		}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range u.Unwrap() {
				out = outermostStatusTexters(e, out)
			}
			return out
		}
		err = errors.Unwrap(err)
	}
	return out
}
