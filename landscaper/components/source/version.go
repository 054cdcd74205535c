package source

import (
	"fmt"
	"io/fs"
	"path"
	"sync"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// Key names a component version.
type Key struct {
	Name, Version string
}

// String is "name:version".
func (k Key) String() string { return k.Name + ":" + k.Version }

// Version is a component version as a source holds it.
type Version struct {
	// Descriptor is the component descriptor as the v2 model.
	Descriptor *cdv2.ComponentDescriptor
	// Schema is the schema the descriptor was written in (descriptor.SchemaV2
	// or descriptor.SchemaV3).
	Schema string
	// Origin says where the version comes from, for messages, e.g.
	// "component constructor commands/component-constructor.yaml".
	Origin string
	// Blobs serves the version's local blobs; nil when its source holds
	// none (a descriptor file without blobs).
	Blobs Blobs
	// ContextRequired is true for Landscaper's own local repositories, whose
	// descriptors must list a repository context ("repository context is
	// required"); other sources get one added where they have none, as
	// `ocm transfer` adds the target repository.
	ContextRequired bool
	// Uploaded are the local blobs that `ocm transfer` would have uploaded
	// into the OCI registry as artifacts of their own (see the registry's
	// withContext), by the imageReference of the ociArtifact access that
	// replaced their localBlob access: their content is still the blob.
	Uploaded map[string]LocalBlobRef
}

// LocalBlobRef names a local blob of a version and its media type.
type LocalBlobRef struct {
	Reference, MediaType string
}

// Key returns the version's name and version.
func (v *Version) Key() Key {
	return Key{Name: v.Descriptor.GetName(), Version: v.Descriptor.GetVersion()}
}

// Blobs serves the local blobs of a component version.
type Blobs interface {
	// Blob returns the local blob named ref (an access's localReference or
	// filename). An unknown ref is an error wrapping fs.ErrNotExist.
	Blob(ref string) (*Blob, error)
}

// Blob is the content of a local blob.
type Blob struct {
	// Dir holds the blob when it is a folder: Landscaper's local
	// repositories may keep blueprints so, and lscli keeps the folders of
	// constructor inputs so. Nil for a blob that is a file.
	Dir fs.FS
	// Chart is true when the blob is a helm chart (a constructor's helm
	// input): Dir is the chart folder, or the bytes a chart archive.
	Chart bool
	// MediaType is the media type of the blob's bytes as the source knows
	// it, "" when unknown.
	MediaType string
	// Origin names the blob for messages, e.g. "component/blobs/sha256.ab12".
	Origin string

	once sync.Once
	read func() ([]byte, error)
	data []byte
	err  error
}

// NewFileBlob returns the blob that read reads.
func NewFileBlob(origin, mediaType string, read func() ([]byte, error)) *Blob {
	return &Blob{Origin: origin, MediaType: mediaType, read: read}
}

// NewDirBlob returns the blob that is the folder dir of fsys; its bytes are
// the folder packed as tar.
func NewDirBlob(origin string, fsys fs.FS, dir string) (*Blob, error) {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, err
	}
	return &Blob{Origin: origin, Dir: sub, MediaType: "application/x-tar",
		read: func() ([]byte, error) { return tarfs.WriteTar(sub, ".", tarfs.Options{}) }}, nil
}

// Bytes returns the blob's content, read once.
func (b *Blob) Bytes() ([]byte, error) {
	b.once.Do(func() {
		if b.read == nil {
			b.err = fmt.Errorf("blob %s has no content", b.Origin)
			return
		}
		b.data, b.err = b.read()
	})
	return b.data, b.err
}

// Root is a folder lscli may read: a landscape folder, or one that the
// config file maps.
type Root struct {
	// FS reads the folder; paths that leave it are errors.
	FS fs.FS
	// Display is the folder as the user named it, for messages ("." or
	// "examples/helm-chart").
	Display string
}

// Show returns name (a path in FS) as the user would write it.
func (r Root) Show(name string) string {
	if r.Display == "" || r.Display == "." {
		return name
	}
	if name == "." {
		return r.Display
	}
	return path.Join(r.Display, name)
}

// Source holds component versions.
type Source interface {
	// Origin names the source for messages.
	Origin() string
	// Rank says which of two sources holding the same component version
	// wins: the higher rank.
	Rank() Rank
	// Load reads the component versions the source holds.
	Load() ([]*Version, error)
}

// Rank orders sources that hold the same component version.
type Rank int

// The ranks, lowest first.
const (
	// RankDescriptor is a descriptor file without blobs.
	RankDescriptor Rank = iota + 1
	// RankArchive is a component archive, CTF or local repository: the
	// descriptor with its blobs.
	RankArchive
	// RankConstructor is a component-constructor file: what the blobs are
	// built from.
	RankConstructor
)

// blobDir serves blobs from a folder of a file system: a file is the blob,
// a folder is the blob packed as tar.
type blobDir struct {
	root Root
	dir  string
	// rename maps a reference to the file name (CTFs keep "sha256:x" as
	// "sha256.x").
	rename func(string) string
}

// Blob implements Blobs.
func (b blobDir) Blob(ref string) (*Blob, error) {
	name := ref
	if name == "" {
		return nil, fmt.Errorf("empty blob reference: %w", fs.ErrNotExist)
	}
	if b.root.FS == nil {
		return nil, fmt.Errorf("blob %s: no local folder to read it from: %w", name, fs.ErrNotExist)
	}
	if b.rename != nil {
		name = b.rename(ref)
	}
	p := path.Join(b.dir, path.Clean("/" + name)[1:])
	info, err := fs.Stat(b.root.FS, p)
	if err != nil {
		return nil, fmt.Errorf("no file %s: %w", b.root.Show(p), fs.ErrNotExist)
	}
	if info.IsDir() {
		return NewDirBlob(b.root.Show(p), b.root.FS, p)
	}
	fsys := b.root.FS
	return NewFileBlob(b.root.Show(p), "", func() ([]byte, error) { return fs.ReadFile(fsys, p) }), nil
}
