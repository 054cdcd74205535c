package components

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/lscli/lscli/landscaper/components/source"
)

// discoveredIndex returns the sources found in the landscape folders,
// walking them on first use.
func (r *Registry) discoveredIndex() *index {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.discovered == nil {
		var sources []source.Source
		for _, root := range r.roots {
			found := source.Discover(root)
			sources = append(sources, found.Sources...)
			r.charts = append(r.charts, found.Charts...)
		}
		r.discovered = newIndex(sources...)
	}
	return r.discovered
}

// discoveredCharts returns the helm charts found in the landscape folders
// and in the folders the components map names.
func (r *Registry) discoveredCharts() []source.Chart {
	r.discoveredIndex()
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]source.Chart(nil), r.charts...)
}

// repoIndex returns the repository a context of type local or inline
// names, read as Landscaper reads it; nil for other types.
func (r *Registry) repoIndex(repo Repo) (*index, error) {
	if r == nil {
		return nil, nil
	}
	switch repo.Kind {
	case RepoLocal:
		if r.local.FS == nil {
			return nil, nil
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.localRepos == nil {
			r.localRepos = map[string]*index{}
		}
		if r.localRepos[repo.FilePath] == nil {
			r.localRepos[repo.FilePath] = newIndex(source.LocalRepository(r.local, repo.FilePath))
		}
		return r.localRepos[repo.FilePath], nil
	case RepoInline:
		var spec source.InlineSpec
		raw, err := repo.Raw.GetRaw()
		if err == nil {
			err = json.Unmarshal(raw, &spec)
		}
		if err != nil {
			return nil, fmt.Errorf("repository context of type inline: %w", err)
		}
		s, err := source.InlineRepository(spec, r.local)
		if err != nil {
			return nil, err
		}
		return newIndex(s), nil
	}
	return nil, nil
}

// mappedIndex returns the sources in the file or folder p that the
// components map names.
func (r *Registry) mappedIndex(p string) (*index, error) {
	r.mu.Lock()
	x := r.mapped[p]
	r.mu.Unlock()
	if x != nil {
		return x, nil
	}
	root, name, err := r.hostFS().open(p)
	if err != nil {
		return nil, err
	}
	sources, charts, err := openSources(root, name)
	if err != nil {
		return nil, err
	}
	x = newIndex(sources...)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mapped == nil {
		r.mapped = map[string]*index{}
	}
	r.mapped[p] = x
	r.charts = append(r.charts, charts...)
	return x, nil
}

// openSources returns the sources of name in root: a component archive or
// CTF folder or file, a constructor or descriptor file, or a folder with
// any of these inside.
func openSources(root source.Root, name string) ([]source.Source, []source.Chart, error) {
	isFile := func(n string) bool {
		info, err := fs.Stat(root.FS, path.Join(name, n))
		return err == nil && info.Mode().IsRegular()
	}
	info, err := fs.Stat(root.FS, name)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case info.IsDir() && isFile(source.DescriptorFile):
		return []source.Source{source.ArchiveFolder(root, name)}, nil, nil
	case info.IsDir() && isFile(source.IndexFile):
		return []source.Source{source.CTFFolder(root, name)}, nil, nil
	case info.IsDir():
		sub, err := fs.Sub(root.FS, name)
		if err != nil {
			return nil, nil, err
		}
		found := source.Discover(source.Root{FS: sub, Display: root.Show(name)})
		return found.Sources, found.Charts, nil
	}
	s, err := fileSource(root, name)
	return []source.Source{s}, nil, err
}

// fileSource returns the source of the file name.
func fileSource(root source.Root, name string) (source.Source, error) {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml") {
		data, err := fs.ReadFile(root.FS, name)
		if err != nil {
			return nil, err
		}
		switch source.Sniff(data) {
		case source.ConstructorFile:
			return source.Constructor(root, name), nil
		case source.DescriptorFileKind:
			return source.Descriptor(root, name), nil
		}
		return nil, fmt.Errorf("%s is neither a component constructor nor a component descriptor", root.Show(name))
	}
	sub := source.Discover(source.Root{FS: singleFileFS{root: root, name: name}, Display: root.Display})
	if len(sub.Sources) == 1 {
		return sub.Sources[0], nil
	}
	return nil, fmt.Errorf("%s is no component archive or CTF (a .tar or .tgz whose first entry is %s or %s)",
		root.Show(name), source.DescriptorFile, source.IndexFile)
}

// withContext returns v with a repository context: its own, or, for a
// source that has none, repo's, as `ocm transfer` adds it. Landscaper's
// local repositories must have one.
func (r *Registry) withContext(v *source.Version, repo Repo) (*source.Version, error) {
	if len(v.Descriptor.RepositoryContexts) > 0 {
		return v, nil
	}
	if v.ContextRequired {
		return nil, fmt.Errorf("component %s of %s: repository context is required", v.Key(), v.Origin)
	}
	if repo.Kind == "" || r == nil {
		return v, nil
	}
	raw, _ := json.Marshal(repo.Raw)
	key := fmt.Sprintf("%p %s", v, raw)
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.contexts[key]; ok {
		return c, nil
	}
	c := *v
	c.Descriptor = v.Descriptor.DeepCopy()
	c.Descriptor.RepositoryContexts = append(c.Descriptor.RepositoryContexts, repo.transferred())
	if r.contexts == nil {
		r.contexts = map[string]*source.Version{}
	}
	r.contexts[key] = &c
	return &c, nil
}
