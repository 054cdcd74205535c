package components

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

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
// CTF file, a constructor or descriptor file, or a folder, read as a
// landscape folder is (Discover): a component archive, component-cli or CTF
// folder, or a folder with any of these inside. A component archive or
// component-cli folder is walked too, for the charts and components in its
// sub-folders and a constructor next to its descriptor.
func openSources(root source.Root, name string) ([]source.Source, []source.Chart, error) {
	info, err := fs.Stat(root.FS, name)
	if err != nil {
		return nil, nil, err
	}
	switch {
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
	if repo.Kind == RepoOCI {
		uploadArtifacts(&c, repo)
	}
	if r.contexts == nil {
		r.contexts = map[string]*source.Version{}
	}
	r.contexts[key] = &c
	return &c, nil
}

// ociArchiveTypes are the media type prefixes of OCI artifacts kept as
// archive blobs (+tar, +tar+gzip), which OCM's OCI repository uploads as
// artifacts of their own.
var ociArchiveTypes = []string{
	"application/vnd.oci.image.manifest.v1+tar", "application/vnd.oci.image.index.v1+tar",
	"application/vnd.docker.distribution.manifest.v2+tar", "application/vnd.docker.distribution.manifest.list.v2+tar",
}

// uploadArtifacts does to v what `ocm transfer` into the OCI registry repo
// does to its local blobs that are OCI artifacts with a reference name (a
// constructor's helm chart): OCM's OCI repository uploads each as an
// artifact of its own, <registry>/<referenceName>, and replaces its access
// with an ociArtifact access to it (genericocireg's artifact handler;
// lscli leaves out the manifest digest it appends). The content is still
// the local blob (Version.Uploaded).
func uploadArtifacts(v *source.Version, repo Repo) {
	for i, res := range v.Descriptor.Resources {
		ref, mediaType, name, ok := uploadedBlob(res)
		if !ok {
			continue
		}
		imageRef := repo.Key + "/" + name
		access := &cdv2.UnstructuredTypedObject{}
		if err := json.Unmarshal([]byte(fmt.Sprintf(`{"type":"ociArtifact","imageReference":%q}`, imageRef)), access); err != nil {
			continue
		}
		res.Access = access
		v.Descriptor.Resources[i] = res
		if v.Uploaded == nil {
			v.Uploaded = map[string]source.LocalBlobRef{}
		}
		v.Uploaded[imageRef] = source.LocalBlobRef{Reference: ref, MediaType: mediaType}
	}
}

// uploadedBlob reads res as a local blob that `ocm transfer` uploads as an
// artifact of its own: a localBlob of an OCI archive media type with a
// referenceName. ok is false for any other resource.
func uploadedBlob(res cdv2.Resource) (ref, mediaType, name string, ok bool) {
	if res.Access == nil || accessKind(res.Access.GetType()) != "localBlob" {
		return "", "", "", false
	}
	ref, _ = res.Access.Object["localReference"].(string)
	mediaType, _ = res.Access.Object["mediaType"].(string)
	name, _ = res.Access.Object["referenceName"].(string)
	return ref, mediaType, name, ref != "" && name != "" && isOCIArchive(mediaType)
}

// uploadedChart returns the local blob of the component version in the
// landscape folders whose helm input `ocm transfer` uploads as the artifact
// key names: a localBlob of an OCI archive media type whose referenceName
// is key below some registry path. found is false when no version has one.
func (r *Registry) uploadedChart(key string) (c *Content, found bool, err error) {
	x := r.discoveredIndex()
	if x == nil {
		return nil, false, nil
	}
	x.load()
	keys := make([]source.Key, 0, len(x.byKey))
	for k := range x.byKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].Name < keys[j].Name || keys[i].Name == keys[j].Name && keys[i].Version < keys[j].Version
	})
	for _, k := range keys {
		v, err := x.find(k)
		if err != nil || v == nil {
			continue
		}
		for _, res := range v.Descriptor.Resources {
			ref, mediaType, name, ok := uploadedBlob(res)
			if !ok || !strings.HasSuffix(key, "/"+name) {
				continue
			}
			c, err := localContent(v, res, ref, mediaType)
			return c, true, err
		}
	}
	return nil, false, nil
}

// isOCIArchive reports whether mediaType is that of an OCI artifact kept
// as a tar archive.
func isOCIArchive(mediaType string) bool {
	for _, p := range ociArchiveTypes {
		if mediaType == p || mediaType == p+"+gzip" {
			return true
		}
	}
	return false
}
