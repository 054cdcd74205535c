// Package apiwords gives the errors of Landscaper's validation the words of
// the apimachinery Landscaper is built with.
//
// Landscaper (github.com/gardener/landscaper, go.mod and apis/go.mod) is
// built with k8s.io/apimachinery v0.34.2; lscli links v0.37.2, whose
// validators word some of the same errors differently. Landscaper's own
// validation (apis/core/validation) calls them, so where lscli shows what
// Landscaper's webhooks or controllers say (an object's status.lastError, a
// refusal by Landscaper's webhook), AsLandscaper rewrites the newer words
// into the older ones. What kube-apiserver says is left alone: a real
// cluster's may be newer than v0.34.
//
// The differences, v0.34.2 → v0.37.2:
//
//   - pkg/util/validation/validation.go IsQualifiedName became
//     pkg/api/validate/content/kube.go IsLabelKey: a key with more than one
//     "/" is "a valid label key must consist of ..." instead of "a
//     qualified name must consist of ...", and a name part or prefix longer
//     than allowed "must be no more than N bytes" instead of "... N
//     characters" (content.MaxLenError). Label keys
//     (apis/meta/v1/validation ValidateLabelName, origin
//     "format=k8s-label-key"), annotation keys (api/validation
//     ValidateAnnotations, the same origin since v0.37) and finalizers
//     (api/validation ValidateFinalizerName, no origin) are checked with
//     it.
//   - IsValidLabelValue became content.IsLabelValue: a value longer than 63
//     bytes "must be no more than 63 bytes" instead of "... 63 characters"
//     (ValidateLabels, origin "format=k8s-label-value" since v0.37).
//
// Differences that AsLandscaper leaves alone are listed in docs/semantics.md.
package apiwords

import (
	"regexp"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Origins of the errors apimachinery v0.37 gives invalid label keys and
// values (field.Error.Origin).
const (
	LabelKeyOrigin   = "format=k8s-label-key"
	LabelValueOrigin = "format=k8s-label-value"
)

// Wording is one difference between the words of lscli's apimachinery and
// those of Landscaper's: an error whose Origin is one of Origins and whose
// Detail matches Newer has the Detail Older (a regexp.Expand template of
// Newer's submatches) in Landscaper.
type Wording struct {
	// Origins are the Origins of the errors with these words ("" for an
	// error without one).
	Origins []string
	// Newer matches the whole Detail in lscli's apimachinery.
	Newer *regexp.Regexp
	// Older is the Detail in Landscaper's, with $1... for Newer's
	// submatches.
	Older string
}

// Wordings are the differences AsLandscaper rewrites.
var Wordings = []Wording{
	{
		// A label or annotation key or a finalizer with more than one "/".
		Origins: []string{LabelKeyOrigin, ""},
		Newer:   regexp.MustCompile(`^a valid label key (must consist of .*)$`),
		Older:   "a qualified name $1",
	},
	{
		// The name part (63) or DNS subdomain prefix (253) of such a key is
		// too long.
		Origins: []string{LabelKeyOrigin, ""},
		Newer:   regexp.MustCompile(`^(name|prefix) part must be no more than ([0-9]+) bytes$`),
		Older:   "$1 part must be no more than $2 characters",
	},
	{
		// A label value is too long.
		Origins: []string{LabelValueOrigin},
		Newer:   regexp.MustCompile(`^must be no more than ([0-9]+) bytes$`),
		Older:   "must be no more than $1 characters",
	},
}

// AsLandscaper rewrites, in place, the Details of errs that Landscaper's
// apimachinery words differently (Wordings) into its words, and returns
// errs. Call it on the errors of Landscaper's own validation before they
// are turned into text.
func AsLandscaper(errs field.ErrorList) field.ErrorList {
	for _, e := range errs {
		for _, w := range Wordings {
			if w.applies(e) {
				m := w.Newer.FindStringSubmatchIndex(e.Detail)
				e.Detail = string(w.Newer.ExpandString(nil, w.Older, e.Detail, m))
				break
			}
		}
	}
	return errs
}

// applies reports whether e has the newer words of w.
func (w Wording) applies(e *field.Error) bool {
	for _, o := range w.Origins {
		if e.Origin == o {
			return w.Newer.MatchString(e.Detail)
		}
	}
	return false
}
