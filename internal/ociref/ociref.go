// Package ociref splits OCI references the way lscli's chart and component
// mappings name them: "repo[:tag][@digest]", as registries, helm's chart.ref
// and an OCM transfer (which pins by digest, "repo:tag@sha256:<hex>") write
// them. It parses nothing else: a reference need not be normalized.
package ociref

import "strings"

// Split splits ref into its repository, tag and digest; tag and digest are
// empty when ref has none. A ":" that a "/" follows is a registry's port,
// not a tag.
func Split(ref string) (repo, tag, digest string) {
	repo, digest, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo, tag = repo[:i], repo[i+1:]
	}
	return repo, tag, digest
}

// MapKeys are the keys a mapping may name ref by, most specific first: ref
// itself, ref without its digest when it is pinned, and its repository.
func MapKeys(ref string) []string {
	repo, _, _ := Split(ref)
	keys := []string{ref}
	if tagged, _, pinned := strings.Cut(ref, "@"); pinned && tagged != repo {
		keys = append(keys, tagged)
	}
	if repo != ref {
		keys = append(keys, repo)
	}
	return keys
}
