package components

import (
	"encoding/json"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// Overwrites are the overwrites of the ComponentVersionOverwrites object a
// Context names (its componentVersionOverwrites), as Landscaper applies
// them to an installation's component reference and to every component
// reference it follows from there (pkg/components/model/componentoverwrites):
// a version whose reference matches an overwrite's source is looked up with
// the substitution's fields instead.
type Overwrites []lsv1alpha1.ComponentVersionOverwrite

// Ref is a reference to a component version in a repository context.
type Ref struct {
	// Repo is the repository context; nil for none.
	Repo *cdv2.UnstructuredTypedObject
	// Name and Version name the component version.
	Name, Version string
}

// Apply returns ref with the substitutions of the overwrites whose source
// matches it, and whether any matched. A source matches when each field it
// sets equals ref's (an unset field matches anything). The substitutions of
// all matching overwrites are combined in order: one that sets a field an
// earlier one has set is left out entirely, and the combination stops when
// all three fields are set. Each set field replaces ref's.
func (o Overwrites) Apply(ref Ref) (Ref, bool) {
	var sub Ref
	matched := false
	for i := range o {
		if !sourceMatches(&o[i].Source, ref) {
			continue
		}
		matched = true
		s := o[i].Substitution
		if (s.ComponentName != "" && sub.Name != "") || (s.Version != "" && sub.Version != "") ||
			(s.RepositoryContext != nil && sub.Repo != nil) {
			continue
		}
		if s.ComponentName != "" {
			sub.Name = s.ComponentName
		}
		if s.Version != "" {
			sub.Version = s.Version
		}
		if s.RepositoryContext != nil {
			sub.Repo = s.RepositoryContext
		}
		if sub.Name != "" && sub.Version != "" && sub.Repo != nil {
			break
		}
	}
	if !matched {
		return ref, false
	}
	if sub.Name != "" {
		ref.Name = sub.Name
	}
	if sub.Version != "" {
		ref.Version = sub.Version
	}
	if sub.Repo != nil {
		ref.Repo = sub.Repo.DeepCopy()
	}
	return ref, true
}

// sourceMatches reports whether the overwrite source s matches ref.
func sourceMatches(s *lsv1alpha1.ComponentVersionOverwriteReference, ref Ref) bool {
	if s.ComponentName != "" && s.ComponentName != ref.Name {
		return false
	}
	if s.Version != "" && s.Version != ref.Version {
		return false
	}
	return s.RepositoryContext == nil || sameRepo(s.RepositoryContext, ref.Repo)
}

// sameRepo reports whether two repository contexts are the same: the same
// type and the same JSON, whatever the order of its keys (the API server
// stores both with sorted keys, where Landscaper compares them).
func sameRepo(a, b *cdv2.UnstructuredTypedObject) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.GetType() == b.GetType() && RepoText(a) == RepoText(b)
}

// RepoText is a repository context's JSON as Landscaper reads it from the
// API server, which stores it with its keys sorted; "" for none.
func RepoText(u *cdv2.UnstructuredTypedObject) string {
	if u == nil {
		return ""
	}
	raw, err := u.GetRaw()
	if err != nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	sorted, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(sorted)
}
