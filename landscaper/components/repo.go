package components

import (
	"encoding/json"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// Repository context types lscli tells apart.
const (
	// RepoLocal is Landscaper's local repository (type local).
	RepoLocal = "local"
	// RepoInline is Landscaper's inline repository (type inline).
	RepoInline = "inline"
	// RepoOCI is an OCI registry (OCIRegistry, ociRegistry).
	RepoOCI = "oci"
	// RepoOther is any other type.
	RepoOther = "other"
)

// Repo is a parsed repository context.
type Repo struct {
	// Kind is RepoLocal, RepoInline, RepoOCI or RepoOther; "" for none.
	Kind string
	// Key identifies an OCI registry: base URL and sub path without scheme,
	// joined with "/" ("europe-docker.pkg.dev/project/examples").
	Key string
	// FilePath is the filePath of a local repository.
	FilePath string
	// Raw is the repository context as written.
	Raw *cdv2.UnstructuredTypedObject
}

// repoFields are the fields of the repository context types lscli reads.
type repoFields struct {
	BaseURL  string `json:"baseUrl"`
	SubPath  string `json:"subPath"`
	FilePath string `json:"filePath"`
}

// ParseRepo parses a repository context; nil gives the zero Repo.
func ParseRepo(u *cdv2.UnstructuredTypedObject) Repo {
	if u == nil {
		return Repo{}
	}
	r := Repo{Raw: u, Kind: RepoOther}
	var f repoFields
	if raw, err := u.GetRaw(); err == nil {
		_ = json.Unmarshal(raw, &f)
	}
	switch strings.TrimSuffix(u.GetType(), "/v1") {
	case "local":
		r.Kind, r.FilePath = RepoLocal, f.FilePath
	case "inline":
		r.Kind = RepoInline
	case "OCIRegistry", "ociRegistry":
		r.Kind, r.Key = RepoOCI, ociKey(f.BaseURL, f.SubPath)
	}
	return r
}

// ociKey normalises a registry base URL and sub path.
func ociKey(base, sub string) string {
	for _, scheme := range []string{"https://", "http://", "oci://"} {
		base = strings.TrimPrefix(base, scheme)
	}
	key := strings.Trim(base, "/")
	if sub = strings.Trim(sub, "/"); sub != "" {
		key += "/" + sub
	}
	return key
}

// transferred is the repository context `ocm transfer` adds to a component
// version it puts into the repository r: for an OCI registry
// {type: OCIRegistry, baseUrl, subPath, componentNameMapping: urlPath}, else
// r as written.
func (r Repo) transferred() *cdv2.UnstructuredTypedObject {
	if r.Kind != RepoOCI {
		return r.Raw.DeepCopy()
	}
	host, sub, _ := strings.Cut(r.Key, "/")
	obj := map[string]any{"type": "OCIRegistry", "baseUrl": host, "componentNameMapping": "urlPath"}
	if sub != "" {
		obj["subPath"] = sub
	}
	data, _ := json.Marshal(obj)
	u := &cdv2.UnstructuredTypedObject{}
	if err := json.Unmarshal(data, u); err != nil {
		return r.Raw.DeepCopy()
	}
	return u
}

// String names the repository in messages.
func (r Repo) String() string {
	switch r.Kind {
	case "":
		return "no repository context"
	case RepoOCI:
		return "repository " + r.Key
	case RepoLocal:
		return "local repository " + r.FilePath
	}
	return "repository of type " + r.Raw.GetType()
}
