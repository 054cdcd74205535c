package fakecluster

import (
	"maps"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateMeta checks the name (on create) and the labels of obj as
// kube-apiserver does for every object it stores (ValidateObjectMeta: names
// are DNS subdomains, label keys qualified names, label values at most 63
// characters of [A-Za-z0-9._-] that begin and end alphanumeric), and
// returns an Invalid error naming what is wrong. A controller that writes
// an object its templates named (a deploy item "Web", an export to the
// dataRef "app/config") fails there, as it does against a real API server.
//
// Most names and labels pass a byte scan; only what fails it is checked by
// apimachinery's validators, which also give the messages.
func validateMeta(gk schema.GroupKind, obj Object, create bool) error {
	if (!create || isDNSSubdomain(obj.GetName())) && labelsPass(obj.GetLabels()) {
		return nil // the usual case, without allocations
	}
	var errs field.ErrorList
	if create && !isDNSSubdomain(obj.GetName()) {
		for _, msg := range apivalidation.NameIsDNSSubdomain(obj.GetName(), false) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), obj.GetName(), msg))
		}
	}
	lbls := obj.GetLabels()
	for _, k := range slices.Sorted(maps.Keys(lbls)) {
		v := lbls[k]
		if !isQualifiedName(k) {
			for _, msg := range validation.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(field.NewPath("metadata", "labels"), k, msg))
			}
		}
		if !isLabelValue(v) {
			for _, msg := range validation.IsValidLabelValue(v) {
				errs = append(errs, field.Invalid(field.NewPath("metadata", "labels"), v, msg))
			}
		}
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(gk, nameForError(obj), errs)
	}
	return nil
}

// labelsPass is the quick check of every label key and value.
func labelsPass(lbls map[string]string) bool {
	for k, v := range lbls {
		if !isQualifiedName(k) || !isLabelValue(v) {
			return false
		}
	}
	return true
}

// isDNSSubdomain is a quick check that s is a DNS-1123 subdomain:
// lower-case alphanumerics, '-' and '.', alphanumeric at both ends of
// every dot-separated part, at most 253 characters.
func isDNSSubdomain(s string) bool {
	if len(s) == 0 || len(s) > validation.DNS1123SubdomainMaxLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' || c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' || (c == '.' && s[i-1] == '-') ||
				(c == '-' && s[i+1] == '.') {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isQualifiedName is a quick check that s is a label key: an optional
// DNS subdomain prefix and '/', then a name part of at most 63 characters
// as isLabelValue allows, not empty.
func isQualifiedName(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if !isDNSSubdomain(s[:i]) {
				return false
			}
			name = s[i+1:]
			break
		}
	}
	return name != "" && isLabelValue(name)
}

// isLabelValue is a quick check that s is a valid label value: empty, or
// at most 63 characters of [A-Za-z0-9._-] beginning and ending with an
// alphanumeric character.
func isLabelValue(s string) bool {
	if len(s) > validation.LabelValueMaxLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && ((c != '-' && c != '_' && c != '.') || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}
