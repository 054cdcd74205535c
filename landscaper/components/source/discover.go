package source

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// Chart is a helm chart found in a folder: a chart folder or archive.
type Chart struct {
	ChartMeta
	// Root and Path locate the chart folder or archive.
	Root Root
	Path string
}

// Found is what Discover finds in a folder.
type Found struct {
	// Sources are the component sources, in path order.
	Sources []Source
	// Charts are the helm charts, in path order.
	Charts []Chart
}

// ConfigFileName is the name of lscli's config file. Walks of landscape and
// component folders skip it: it often sits next to the landscape, and its
// components: key would read as a component constructor's.
const ConfigFileName = "lscli.yaml"

// LandscaperDir is the hidden folder where projects keep their component
// (descriptor, resources, blueprint), as Gardener's do: Discover looks into
// it, though it skips other hidden entries.
const LandscaperDir = ".landscaper"

// Discover walks root and returns the component sources and helm charts in
// it: component archive folders (with component-descriptor.yaml), CTF
// folders (with artifact-index.json), component archives and CTFs as
// .tar/.tgz files, component-constructor files and component descriptor
// files (*.yaml, *.yml, any name; descriptors next to a blobs folder serve
// their blobs from it), component-cli folders, and helm chart folders and
// archives, also in the sub-folders of component archive and component-cli
// folders. Hidden entries (but .landscaper), blobs folders and blueprint
// folders are skipped. Nothing is parsed beyond
// what tells the kind. The config file is skipped.
func Discover(root Root) Found {
	var found Found
	// componentDirs are the component archive and component-cli folders
	// found: their own files are the component's, but their sub-folders
	// (a project's chart/, installation/, more components) are walked.
	componentDirs := map[string]bool{}
	_ = fs.WalkDir(root.FS, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case p != "." && strings.HasPrefix(d.Name(), ".") && d.Name() != LandscaperDir:
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir():
			return found.dir(root, p, componentDirs)
		case componentDirs[path.Dir(p)]:
		case d.Type().IsRegular() && d.Name() != ConfigFileName:
			found.file(root, p)
		}
		return nil
	})
	return found
}

// dir looks at the folder p; fs.SkipDir when it is one thing as a whole. A
// component archive or component-cli folder is one source, but only its
// own files are (componentDirs); its sub-folders are walked, as projects
// keep charts and more components there.
func (f *Found) dir(root Root, p string, componentDirs map[string]bool) error {
	switch {
	case path.Base(p) == blobsDir && p != ".":
		return fs.SkipDir
	case isFile(root.FS, path.Join(p, DescriptorFile)) && (isFile(root.FS, path.Join(p, ResourcesFile)) || isFile(root.FS, path.Join(p, SourcesFile))):
		f.Sources = append(f.Sources, ComponentCLIFolder(root, p))
		f.constructorsIn(root, p)
		componentDirs[p] = true
	case isFile(root.FS, path.Join(p, DescriptorFile)):
		f.Sources = append(f.Sources, ArchiveFolder(root, p))
		f.constructorsIn(root, p)
		componentDirs[p] = true
	case isFile(root.FS, path.Join(p, IndexFile)):
		f.Sources = append(f.Sources, CTFFolder(root, p))
		return fs.SkipDir
	case isFile(root.FS, path.Join(p, chartFile)):
		if meta, err := FolderChartMeta(root.FS, p); err == nil {
			f.Charts = append(f.Charts, Chart{ChartMeta: meta, Root: root, Path: p})
		}
		return fs.SkipDir
	case isBlueprintDir(root.FS, p):
		return fs.SkipDir
	default:
		f.componentCLIWithoutDescriptor(root, p)
	}
	return nil
}

// componentCLIWithoutDescriptor adds a source that fails with what to do
// when the folder p has component-cli's resources.yaml or sources.yaml but
// no base descriptor, as the .landscaper folders of projects that create it
// in their build script (`component-cli component-archive create`).
func (f *Found) componentCLIWithoutDescriptor(root Root, p string) {
	for _, name := range []string{ResourcesFile, SourcesFile} {
		data, err := fs.ReadFile(root.FS, path.Join(p, name))
		if err == nil && IsComponentCLIFile(name, data) {
			f.Sources = append(f.Sources, &missingDescriptor{root: root, dir: p, file: name})
			return
		}
	}
}

// constructorsIn adds the component constructor and descriptor files
// directly in the folder p of a component archive or component-cli folder:
// its other files are the archive's, but a constructor next to them is read
// too (and wins over the archive, see RankConstructor), as ocm builds from
// it, and so is a descriptor of another component, as projects keep the
// components their component references next to its own
// (gardener/landscaper-examples' render-blueprint/access-cd-reference:
// component-descriptor-referenced.yaml, which landscaper-cli's render
// takes with -a).
func (f *Found) constructorsIn(root Root, p string) {
	entries, err := fs.ReadDir(root.FS, p)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := path.Join(p, e.Name())
		lower := strings.ToLower(e.Name())
		if !e.Type().IsRegular() || e.Name() == DescriptorFile || e.Name() == ResourcesFile || e.Name() == SourcesFile ||
			!(strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml")) {
			continue
		}
		f.yamlFile(root, name)
	}
}

// file looks at the file p.
func (f *Found) file(root Root, p string) {
	lower := strings.ToLower(p)
	switch {
	case strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml"):
		f.yamlFile(root, p)
	case strings.HasSuffix(lower, ".tar") || strings.HasSuffix(lower, ".tgz") || strings.HasSuffix(lower, ".tar.gz"):
		f.archive(root, p)
	}
}

// yamlFile adds a constructor or descriptor file.
func (f *Found) yamlFile(root Root, p string) {
	data, err := fs.ReadFile(root.FS, p)
	if err != nil {
		return
	}
	switch Sniff(data) {
	case ConstructorFile:
		f.Sources = append(f.Sources, Constructor(root, p))
	case DescriptorFileKind:
		blobs := path.Join(path.Dir(p), blobsDir)
		if info, err := fs.Stat(root.FS, blobs); err == nil && info.IsDir() {
			f.Sources = append(f.Sources, &descriptorWithBlobs{descriptorFile{root: root, name: p}, blobDir{root: root, dir: blobs}})
			return
		}
		f.Sources = append(f.Sources, Descriptor(root, p))
	}
}

// archive adds a component archive, CTF or chart archive.
func (f *Found) archive(root Root, p string) {
	names, chartYAML := archiveEntries(root.FS, p)
	switch {
	case len(names) == 0:
	case names[0] == DescriptorFile:
		f.Sources = append(f.Sources, ArchiveFile(root, p))
	case names[0] == IndexFile:
		f.Sources = append(f.Sources, CTFFile(root, p))
	case chartYAML != nil:
		if meta, err := parseChartMeta(chartYAML); err == nil {
			f.Charts = append(f.Charts, Chart{ChartMeta: meta, Root: root, Path: p})
		}
	}
}

// maxSniffedEntries bounds how many entries of an archive Discover reads.
const maxSniffedEntries = 64

// archiveEntries streams the first entries of the tar or tgz file p and
// returns their names and the content of a top-level <chart>/Chart.yaml.
func archiveEntries(fsys fs.FS, p string) ([]string, []byte) {
	file, err := fsys.Open(p)
	if err != nil {
		return nil, nil
	}
	defer file.Close()
	var r io.Reader = file
	if strings.HasSuffix(strings.ToLower(p), "gz") {
		zr, err := gzip.NewReader(file)
		if err != nil {
			return nil, nil
		}
		r = zr
	}
	tr := tar.NewReader(r)
	var names []string
	for len(names) < maxSniffedEntries {
		h, err := tr.Next()
		if err != nil {
			break
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		names = append(names, name)
		if dir, base := path.Split(name); base == chartFile && strings.Count(dir, "/") == 1 {
			data, err := io.ReadAll(io.LimitReader(tr, tarfs.MaxSize))
			if err == nil || errors.Is(err, io.EOF) {
				return names, data
			}
		}
	}
	return names, nil
}

// descriptorWithBlobs is a descriptor file next to a blobs folder.
type descriptorWithBlobs struct {
	descriptorFile
	blobs blobDir
}

func (d *descriptorWithBlobs) Rank() Rank { return RankArchive }

func (d *descriptorWithBlobs) Load() ([]*Version, error) {
	v, err := readDescriptor(d.root, d.name, d.blobs)
	if err != nil {
		return nil, err
	}
	v.Origin = d.Origin()
	return []*Version{v}, nil
}

func isFile(fsys fs.FS, p string) bool {
	info, err := fs.Stat(fsys, p)
	return err == nil && info.Mode().IsRegular()
}

// isBlueprintDir tells whether dir holds a blueprint.yaml of kind Blueprint.
func isBlueprintDir(fsys fs.FS, dir string) bool {
	data, err := fs.ReadFile(fsys, path.Join(dir, "blueprint.yaml"))
	if err != nil {
		return false
	}
	var h struct {
		Kind string `json:"kind"`
	}
	return yaml.Unmarshal(data, &h) == nil && h.Kind == "Blueprint"
}
