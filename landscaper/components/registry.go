package components

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components/source"
)

// Config is what the config file says about component versions. Paths are
// host paths, absolute or relative to the working directory.
type Config struct {
	// Components maps to a folder or file holding component versions: a
	// component name with version ("github.com/acme/app:1.0.0"), a component
	// name, or an OCI repository ("europe-docker.pkg.dev/project/examples",
	// matching every repository context at or below it).
	Components map[string]string
	// Artifacts maps the references of resources kept in registries or
	// elsewhere on the network (an ociArtifact's imageReference, ...) to
	// local files or folders.
	Artifacts map[string]string
	// Charts maps helm chart references to local chart folders or archives
	// (the helm deployer's map; see deployers/helm Options.Charts).
	Charts map[string]string
	// LocalRoot is Landscaper's registry.local.rootPath: where repository
	// contexts of type local and the local blobs of inline component
	// descriptors are read. Empty means the first landscape folder.
	LocalRoot string
	// File is the config file, for messages. Empty means "lscli.yaml".
	File string
}

// Registry finds component versions in local sources. It is safe for
// concurrent use. The zero value finds only inline descriptors and what
// the (empty) config maps.
type Registry struct {
	cfg   Config
	roots []source.Root
	local source.Root
	host  *hostFS

	mu         sync.Mutex
	discovered *index
	charts     []source.Chart
	mapped     map[string]*index
	localRepos map[string]*index
	contexts   map[string]*source.Version
	blueprints map[string]*blueprint.Blueprint
	// consulted are the keys of cfg.Components a lookup read.
	consulted map[string]bool
}

// New returns the registry over cfg that discovers component sources in
// roots, the landscape folders (a file stands for its folder).
func New(cfg Config, roots []string) (*Registry, error) {
	h := &hostFS{}
	r := &Registry{cfg: cfg, host: h}
	for _, p := range roots {
		root, _, err := h.open(p)
		if err != nil {
			return nil, err
		}
		r.roots = append(r.roots, root)
	}
	switch {
	case cfg.LocalRoot != "":
		root, name, err := h.open(cfg.LocalRoot)
		if err != nil {
			return nil, fmt.Errorf("local-registry-root: %w", err)
		}
		if name != "." {
			return nil, fmt.Errorf("local-registry-root %s is not a folder", cfg.LocalRoot)
		}
		r.local = root
	case len(r.roots) > 0:
		r.local = r.roots[0]
	}
	return r, nil
}

// NewFromRoots returns a registry over file systems, for tests and
// embedding: it discovers sources in roots and reads local repositories
// from local. Config paths are host paths.
func NewFromRoots(cfg Config, roots []source.Root, local source.Root) *Registry {
	return &Registry{cfg: cfg, roots: roots, local: local, host: &hostFS{}}
}

// Close releases the folders the registry holds open.
func (r *Registry) Close() error {
	if r == nil || r.host == nil {
		return nil
	}
	return r.host.close()
}

// Request asks for one component version.
type Request struct {
	// Repo is the repository context to look in; nil for none.
	Repo *cdv2.UnstructuredTypedObject
	// Name and Version name the component version.
	Name, Version string
	// Inline holds the installation's inline component descriptors, looked
	// at first; nil for none.
	Inline source.Source
	// Fallback is looked at last, when no other source holds the version;
	// nil for none.
	Fallback source.Source
	// Overwrites are applied to the component references that Resolve
	// follows (not to Repo, Name and Version: the caller applies them
	// there, see Overwrites).
	Overwrites Overwrites
}

// Lookup finds a component version. In order: the installation's inline
// descriptors; the config file's components map (by name and version, by
// name, by repository); a repository context of type local or inline, read
// as Landscaper reads it; the sources discovered in the landscape folders,
// whatever the repository context; the request's fallback. A version
// without repository context gets the requested one, as `ocm transfer`
// adds it.
func (r *Registry) Lookup(req Request) (*source.Version, error) {
	repo := ParseRepo(req.Repo)
	key := source.Key{Name: req.Name, Version: req.Version}
	v, err := r.find(repo, key, req.Inline, req.Fallback)
	if err != nil {
		return nil, err
	}
	return r.withContext(v, repo)
}

// find looks key up in the order Lookup documents.
func (r *Registry) find(repo Repo, key source.Key, inline, fallback source.Source) (*source.Version, error) {
	var s search
	if v, err := s.in(inlineIndex(inline), key); v != nil || err != nil {
		return v, r.annotate(err)
	}
	if v, err := r.findMapped(&s, repo, key); v != nil || err != nil {
		return v, err
	}
	x, err := r.repoIndex(repo)
	if err != nil {
		return nil, err
	}
	if v, err := s.in(x, key); v != nil || err != nil {
		return v, r.annotate(err)
	}
	if v, err := s.in(r.discoveredIndex(), key); v != nil || err != nil {
		return v, r.annotate(err)
	}
	if v, err := s.in(inlineIndex(fallback), key); v != nil || err != nil {
		return v, r.annotate(err)
	}
	return nil, &NotFoundError{Key: key, Repo: repo, Searched: s.searched, Failed: s.failed, File: r.configFile()}
}

// search collects what a lookup looked at, for NotFoundError.
type search struct {
	searched, failed []string
}

// in looks key up in x (which may be nil).
func (s *search) in(x *index, key source.Key) (*source.Version, error) {
	if x == nil {
		return nil, nil
	}
	v, err := x.find(key)
	if v == nil && err == nil {
		s.searched, s.failed = appendNew(s.searched, x.held()), appendNew(s.failed, x.failed)
	}
	return v, err
}

// appendNew appends the items of more that list does not hold yet: a
// folder both mapped and read as a landscape folder is named once.
func appendNew(list, more []string) []string {
	for _, m := range more {
		if !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return list
}

// annotate adds the config file to errors that suggest a line of it.
func (r *Registry) annotate(err error) error {
	if a, ok := err.(*AmbiguousError); ok {
		a.File = r.configFile()
	}
	return err
}

func inlineIndex(s source.Source) *index {
	if s == nil {
		return nil
	}
	return newIndex(s)
}

// findMapped looks key up in the config file's components map: an entry by
// name (with or without version) must hold it; entries by repository are
// searched, longest first, and what they hold or could not read goes into
// s, as for the other sources.
func (r *Registry) findMapped(s *search, repo Repo, key source.Key) (*source.Version, error) {
	if r == nil {
		return nil, nil
	}
	for _, k := range []string{key.String(), key.Name} {
		p, ok := r.cfg.Components[k]
		if !ok {
			continue
		}
		r.consult(k)
		x, err := r.mappedIndex(p)
		if err != nil {
			return nil, fmt.Errorf("%s: components[%q]: %w", r.configFile(), k, err)
		}
		v, err := x.find(key)
		if err != nil || v != nil {
			return v, r.annotate(err)
		}
		held := "it holds: " + strings.Join(x.held(), "; ")
		if len(x.held()) == 0 {
			held = "it holds no component version"
		}
		return nil, fmt.Errorf("%s maps components[%q] to %s, which does not hold %s (%s%s)",
			r.configFile(), k, p, key, held, failedNote(x.failed))
	}
	for _, k := range r.repoKeys(repo) {
		r.consult(k)
		x, err := r.mappedIndex(r.cfg.Components[k])
		if err != nil {
			return nil, fmt.Errorf("%s: components[%q]: %w", r.configFile(), k, err)
		}
		if v, err := s.in(x, key); err != nil || v != nil {
			return v, r.annotate(err)
		}
	}
	return nil, nil
}

// consult records that a lookup read the components key k.
func (r *Registry) consult(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.consulted == nil {
		r.consulted = map[string]bool{}
	}
	r.consulted[k] = true
}

// UnconsultedNotes says, for each key of the config file's components map
// that no lookup has read (sorted), that it is used by no installation:
// after a dry run of a whole landscape, a key that names neither a
// component nor a repository any installation uses.
func (r *Registry) UnconsultedNotes() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var keys []string
	for k := range r.cfg.Components {
		if !r.consulted[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%s: components[%q] is used by no installation: the key is a component name (with or without :version) "+
			"or the baseUrl of a repository context an installation looks its component up in", fileOr(r.cfg.File), k)
	}
	return out
}

func failedNote(failed []string) string {
	if len(failed) == 0 {
		return ""
	}
	return "; could not read: " + strings.Join(failed, "; ")
}

// repoKeys returns the keys of the components map that name repo or a
// repository above it, longest first.
func (r *Registry) repoKeys(repo Repo) []string {
	if repo.Kind != RepoOCI {
		return nil
	}
	var keys []string
	for k := range r.cfg.Components {
		n := ociKey(k, "")
		if n != "" && (repo.Key == n || strings.HasPrefix(repo.Key, n+"/")) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}

func (r *Registry) configFile() string {
	if r == nil {
		return ""
	}
	return r.cfg.File
}

// LocalRoot is the folder repository contexts of type local and inline
// component descriptors' blobs are read from.
func (r *Registry) LocalRoot() source.Root {
	if r == nil {
		return source.Root{}
	}
	return r.local
}
