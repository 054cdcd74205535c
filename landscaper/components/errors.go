package components

import (
	"fmt"
	"strings"

	"github.com/lscli/lscli/landscaper/components/source"
)

// NotFoundError says that no local source holds a component version.
type NotFoundError struct {
	Key  source.Key
	Repo Repo
	// Searched lists the sources looked at and what they hold.
	Searched []string
	// Failed lists the sources that could not be read.
	Failed []string
	// File is the config file, for the suggestion.
	File string
}

// Error says what is missing and what to do.
func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "component %s (%s) is in no local source", e.Key, e.Repo)
	if strings.Contains(e.Key.String(), "${") || strings.Contains(e.Repo.String(), "${") {
		// An Installation from a template (hack/installation-template.yaml
		// and envsubst), read as it is: no mapping would help.
		b.WriteString(": the reference holds ${...} variables, which envsubst or a script fills in and lscli does not: fill them in first")
		return b.String()
	}
	b.WriteString(": lscli reads no registry")
	switch {
	case len(e.Searched) > 0:
		fmt.Fprintf(&b, ". Searched: %s", strings.Join(e.Searched, "; "))
	case len(e.Failed) == 0:
		b.WriteString(". No component constructor, component archive or descriptor was found in the landscape folders")
	}
	if len(e.Failed) > 0 {
		fmt.Fprintf(&b, ". Could not read: %s", strings.Join(e.Failed, "; "))
	}
	key := e.Key.Name
	if e.Repo.Kind == RepoOCI {
		key = e.Repo.Key
	}
	fmt.Fprintf(&b, ". Add the folder or file that has it to %s, e.g.\n  components:\n    %q: ./path/to/folder", fileOr(e.File), key)
	return b.String()
}

// AmbiguousError says that two sources of the same rank hold different
// descriptors of one component version.
type AmbiguousError struct {
	Key     source.Key
	Origins []string
	File    string
	// Difference is the first field in which the two differ, with both
	// values (firstDifference), or "".
	Difference string
}

// Error says what is missing and what to do.
func (e *AmbiguousError) Error() string {
	diff := ""
	if e.Difference != "" {
		diff = " (first in " + e.Difference + ")"
	}
	return fmt.Sprintf("component %s is in two sources that differ: %s%s; say which one lscli reads in %s, e.g.\n  components:\n    %q: ./path/to/one",
		e.Key, strings.Join(e.Origins, " and "), diff, fileOr(e.File), e.Key.String())
}

// NeedsRegistryError says that the content of a resource is in a registry
// (or elsewhere on the network) and no local file is mapped to it.
type NeedsRegistryError struct {
	// Component and Resource name the resource; ResourceType is its type.
	Component    source.Key
	Resource     string
	ResourceType string
	// AccessType and Reference describe its access.
	AccessType, Reference string
	// Where says where the access points ("an OCI registry").
	Where string
	// Detail adds what lscli looked for locally, may be "".
	Detail string
	// Map and Key are the config file map and key that would map it; Hint
	// is the example value.
	Map, Key, Hint string
	// File is the config file.
	File string
}

// Error says what is missing and what to do.
func (e *NeedsRegistryError) Error() string {
	msg := fmt.Sprintf("component %s, resource %q (type %s): access %s %q is in %s, which lscli does not read",
		e.Component, e.Resource, e.ResourceType, e.AccessType, e.Reference, e.Where)
	if e.Detail != "" {
		msg += ", and " + e.Detail
	}
	return msg + fmt.Sprintf("; map it in %s:\n  %s:\n    %q: %s", fileOr(e.File), e.Map, e.Key, e.Hint)
}

// UnsupportedAccessError says that lscli cannot read an access type.
type UnsupportedAccessError struct {
	Component  source.Key
	Resource   string
	AccessType string
}

// Error says what is missing and what to do.
func (e *UnsupportedAccessError) Error() string {
	return fmt.Sprintf("component %s, resource %q: access type %q is not supported by lscli", e.Component, e.Resource, e.AccessType)
}

func fileOr(f string) string {
	if f == "" {
		return "lscli.yaml"
	}
	return f
}
