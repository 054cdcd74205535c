package source

import (
	"fmt"
	"io/fs"
	"path"

	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// DescriptorFile is the name of the descriptor in a component archive.
const DescriptorFile = "component-descriptor.yaml"

// blobsDir is the folder of local blobs in archives and local repositories.
const blobsDir = "blobs"

// localRepo is Landscaper's local repository (type local): every regular
// file directly in dir is a component descriptor; blobs are in dir/blobs,
// or, when there is no such folder, in the root itself.
type localRepo struct {
	root Root
	dir  string
}

// LocalRepository returns Landscaper's local repository at dir of root,
// read as Landscaper reads a repository context {type: local, filePath: dir}
// under its registry.local.rootPath.
func LocalRepository(root Root, dir string) Source {
	return &localRepo{root: root, dir: CleanInside(dir)}
}

// CleanInside makes p a path inside a root, as Landscaper's projected file
// system does: absolute paths start at the root, ".." stops there.
func CleanInside(p string) string {
	c := path.Clean("/" + p)[1:]
	if c == "" {
		return "."
	}
	return c
}

func (l *localRepo) Origin() string {
	return "local repository " + l.root.Show(l.dir)
}

func (l *localRepo) Rank() Rank { return RankArchive }

// Load reads every descriptor; one that does not decode fails the
// repository, as in Landscaper.
func (l *localRepo) Load() ([]*Version, error) {
	entries, err := fs.ReadDir(l.root.FS, l.dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.Origin(), err)
	}
	blobs := blobDir{root: l.root, dir: "."}
	if info, err := fs.Stat(l.root.FS, path.Join(l.dir, blobsDir)); err == nil && info.IsDir() {
		blobs.dir = path.Join(l.dir, blobsDir)
	}
	var out []*Version
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		p := path.Join(l.dir, e.Name())
		v, err := readDescriptor(l.root, p, blobs)
		if err != nil {
			return nil, fmt.Errorf("%s: error indexing repository: %w", l.Origin(), err)
		}
		v.ContextRequired = true
		v.Origin = "local repository " + l.root.Show(p)
		out = append(out, v)
	}
	return out, nil
}

// readDescriptor reads the descriptor file p of root as a version whose
// blobs blobs serves (may be nil).
func readDescriptor(root Root, p string, blobs Blobs) (*Version, error) {
	data, err := fs.ReadFile(root.FS, p)
	if err != nil {
		return nil, err
	}
	cd, schema, err := descriptor.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", root.Show(p), err)
	}
	return &Version{Descriptor: cd, Schema: schema, Origin: root.Show(p), Blobs: blobs}, nil
}

// archiveDir is a component archive folder: component-descriptor.yaml and
// blobs/.
type archiveDir struct {
	root   Root
	dir    string
	origin string
}

// ArchiveFolder returns the component archive in folder dir of root.
func ArchiveFolder(root Root, dir string) Source {
	return &archiveDir{root: root, dir: dir, origin: "component archive " + root.Show(dir)}
}

// ArchiveFile returns the component archive in the tar or tgz file name of
// root.
func ArchiveFile(root Root, name string) Source {
	return &lazy{origin: "component archive " + root.Show(name), rank: RankArchive, open: func() (Source, error) {
		fsys, err := readArchive(root, name)
		if err != nil {
			return nil, err
		}
		return &archiveDir{root: Root{FS: fsys, Display: root.Show(name)}, dir: ".",
			origin: "component archive " + root.Show(name)}, nil
	}}
}

func (a *archiveDir) Origin() string { return a.origin }

func (a *archiveDir) Rank() Rank { return RankArchive }

func (a *archiveDir) Load() ([]*Version, error) {
	v, err := readDescriptor(a.root, path.Join(a.dir, DescriptorFile), blobDir{root: a.root, dir: path.Join(a.dir, blobsDir)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.origin, err)
	}
	v.Origin = a.origin
	return []*Version{v}, nil
}

// descriptorFile is a single component descriptor file without blobs.
type descriptorFile struct {
	root Root
	name string
}

// Descriptor returns the component descriptor file name of root, a version
// without blobs.
func Descriptor(root Root, name string) Source {
	return &descriptorFile{root: root, name: name}
}

func (d *descriptorFile) Origin() string { return "component descriptor " + d.root.Show(d.name) }

func (d *descriptorFile) Rank() Rank { return RankDescriptor }

func (d *descriptorFile) Load() ([]*Version, error) {
	v, err := readDescriptor(d.root, d.name, nil)
	if err != nil {
		return nil, err
	}
	v.Origin = d.Origin()
	return []*Version{v}, nil
}

// readArchive reads the tar or tgz file name of root into a file system.
func readArchive(root Root, name string) (fs.FS, error) {
	data, err := fs.ReadFile(root.FS, name)
	if err != nil {
		return nil, err
	}
	fsys, err := tarfs.ReadTar(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", root.Show(name), err)
	}
	return fsys, nil
}

// lazy is a source opened on first Load.
type lazy struct {
	origin string
	rank   Rank
	open   func() (Source, error)
}

func (l *lazy) Origin() string { return l.origin }

func (l *lazy) Rank() Rank { return l.rank }

func (l *lazy) Load() ([]*Version, error) {
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	return s.Load()
}
