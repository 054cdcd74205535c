package apiwords

import (
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// qualifiedName is the Detail of apimachinery v0.34.2's IsQualifiedName
// (pkg/util/validation/validation.go) for a key with more than one "/".
const qualifiedName = "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"

var (
	long     = strings.Repeat("a", 70)
	longHost = strings.Repeat("a", 260)
	path     = field.NewPath("metadata", "labels")
)

// cases are errors of the validators Landscaper's validation calls, made by
// the apimachinery lscli links, with the message apimachinery v0.34.2 (the
// one Landscaper is built with) gives for the same input: the output of
// Error() there, recorded by running the same calls against v0.34.2.
var cases = []struct {
	name  string
	errs  func() field.ErrorList
	older string
}{
	{"label key with two slashes", func() field.ErrorList {
		return metav1validation.ValidateLabels(map[string]string{"a/b/c": "v"}, path)
	}, `metadata.labels: Invalid value: "a/b/c": ` + qualifiedName},
	{"annotation key with two slashes", func() field.ErrorList {
		return apivalidation.ValidateAnnotations(map[string]string{"a/b/c": "v"}, field.NewPath("metadata", "annotations"))
	}, `metadata.annotations: Invalid value: "a/b/c": ` + qualifiedName},
	{"finalizer with two slashes", func() field.ErrorList {
		return apivalidation.ValidateFinalizerName("a/b/c", field.NewPath("metadata", "finalizers"))
	}, `metadata.finalizers: Invalid value: "a/b/c": ` + qualifiedName},
	{"label key name part too long", func() field.ErrorList {
		return metav1validation.ValidateLabels(map[string]string{"example.com/" + long: "v"}, path)
	}, `metadata.labels: Invalid value: "example.com/` + long + `": name part must be no more than 63 characters`},
	{"label key name too long", func() field.ErrorList {
		return metav1validation.ValidateLabels(map[string]string{long: "v"}, path)
	}, `metadata.labels: Invalid value: "` + long + `": name part must be no more than 63 characters`},
	{"finalizer name part too long", func() field.ErrorList {
		return apivalidation.ValidateFinalizerName("x/"+long, field.NewPath("metadata", "finalizers"))
	}, `metadata.finalizers: Invalid value: "x/` + long + `": name part must be no more than 63 characters`},
	{"label key prefix too long", func() field.ErrorList {
		return metav1validation.ValidateLabels(map[string]string{longHost + "/x": "v"}, path)
	}, `metadata.labels: Invalid value: "` + longHost + `/x": prefix part must be no more than 253 characters`},
	{"label value too long", func() field.ErrorList {
		return metav1validation.ValidateLabels(map[string]string{"k": long}, path)
	}, `metadata.labels: Invalid value: "` + long + `": must be no more than 63 characters`},
}

// TestAsLandscaper checks each wording against the errors apimachinery
// gives now: if an update of apimachinery changes its words again, the
// errors no longer match and this test fails, and Wordings needs a new
// entry.
func TestAsLandscaper(t *testing.T) {
	used := make([]bool, len(Wordings))
	for _, c := range cases {
		errs := c.errs()
		if len(errs) != 1 {
			t.Fatalf("%s: want one error, got %v", c.name, errs)
		}
		e := errs[0]
		hit := false
		for i, w := range Wordings {
			if w.applies(e) {
				used[i], hit = true, true
				break
			}
		}
		if !hit {
			t.Errorf("%s: no wording matches apimachinery's error (origin %q): %s", c.name, e.Origin, e.Error())
			continue
		}
		if got := AsLandscaper(errs)[0].Error(); got != c.older {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.older)
		}
	}
	for i, u := range used {
		if !u {
			t.Errorf("Wordings[%d] (%s) is checked by no case", i, Wordings[i].Newer)
		}
	}
}

// TestAsLandscaperLeavesOthers checks that errors both versions word alike,
// and errors of another origin, keep their words.
func TestAsLandscaperLeavesOthers(t *testing.T) {
	errs := field.ErrorList{
		field.Invalid(path, "x", "must be no more than 63 bytes"),
		field.Invalid(path, "x", "a valid label key must consist of").WithOrigin("other"),
	}
	errs = append(errs, metav1validation.ValidateLabels(map[string]string{"Bad_/x": "-v"}, path)...)
	var before []string
	for _, e := range errs {
		before = append(before, e.Error())
	}
	AsLandscaper(errs)
	for i, e := range errs {
		if e.Error() != before[i] {
			t.Errorf("changed %q to %q", before[i], e.Error())
		}
	}
}
