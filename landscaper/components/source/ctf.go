package source

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// IndexFile is the index of a common transport format (CTF) folder.
const IndexFile = "artifact-index.json"

// componentRepositoryPrefix starts the OCI repository of a component
// version in a CTF (and an OCI registry).
const componentRepositoryPrefix = "component-descriptors/"

// ctfIndex is artifact-index.json.
type ctfIndex struct {
	Artifacts []struct {
		Repository string `json:"repository"`
		Tag        string `json:"tag"`
		Digest     string `json:"digest"`
	} `json:"artifacts"`
}

// ociManifest is the part of an OCI image manifest that a CTF needs.
type ociManifest struct {
	Config ociDescriptor   `json:"config"`
	Layers []ociDescriptor `json:"layers"`
}

type ociDescriptor struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
}

// componentConfig is the config blob of a component version's manifest.
type componentConfig struct {
	ComponentDescriptorLayer *ociDescriptor `json:"componentDescriptorLayer"`
}

// ctf is a CTF folder: the file system representation of an OCI registry
// that `ocm add components` writes.
type ctf struct {
	root   Root
	dir    string
	origin string
}

// CTFFolder returns the CTF in folder dir of root.
func CTFFolder(root Root, dir string) Source {
	return &ctf{root: root, dir: dir, origin: "transport archive " + root.Show(dir)}
}

// CTFFile returns the CTF in the tar or tgz file name of root.
func CTFFile(root Root, name string) Source {
	origin := "transport archive " + root.Show(name)
	return &lazy{origin: origin, rank: RankArchive, open: func() (Source, error) {
		fsys, err := readArchive(root, name)
		if err != nil {
			return nil, err
		}
		return &ctf{root: Root{FS: fsys, Display: root.Show(name)}, dir: ".", origin: origin}, nil
	}}
}

func (c *ctf) Origin() string { return c.origin }

func (c *ctf) Rank() Rank { return RankArchive }

// Load reads every component version the index lists.
func (c *ctf) Load() ([]*Version, error) {
	data, err := fs.ReadFile(c.root.FS, path.Join(c.dir, IndexFile))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.origin, err)
	}
	var idx ctfIndex
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.origin, IndexFile, err)
	}
	blobs := blobDir{root: c.root, dir: path.Join(c.dir, blobsDir), rename: digestFile}
	var out []*Version
	for _, a := range idx.Artifacts {
		if !strings.HasPrefix(a.Repository, componentRepositoryPrefix) {
			continue
		}
		v, err := c.version(blobs, a.Digest)
		if err != nil {
			return nil, fmt.Errorf("%s: %s:%s: %w", c.origin, strings.TrimPrefix(a.Repository, componentRepositoryPrefix), a.Tag, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// version reads the component version whose manifest has digest.
func (c *ctf) version(blobs blobDir, digest string) (*Version, error) {
	var m ociManifest
	if err := c.readJSON(blobs, digest, &m); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	layer := ociDescriptor{}
	var cfg componentConfig
	if err := c.readJSON(blobs, m.Config.Digest, &cfg); err == nil && cfg.ComponentDescriptorLayer != nil {
		layer = *cfg.ComponentDescriptorLayer
	} else if len(m.Layers) > 0 {
		layer = m.Layers[0]
	}
	b, err := blobs.Blob(layer.Digest)
	if err != nil {
		return nil, err
	}
	data, err := b.Bytes()
	if err != nil {
		return nil, err
	}
	if tarfs.IsTar(data) {
		files, err := tarfs.ReadTar(data)
		if err != nil {
			return nil, err
		}
		if data, err = fs.ReadFile(files, DescriptorFile); err != nil {
			return nil, fmt.Errorf("component descriptor layer: %w", err)
		}
	}
	root := Root{FS: fileFS(data), Display: b.Origin}
	v, err := readDescriptor(root, DescriptorFile, blobs)
	if err != nil {
		return nil, err
	}
	v.Origin = c.origin
	return v, nil
}

// readJSON decodes the blob digest.
func (c *ctf) readJSON(blobs blobDir, digest string, into any) error {
	b, err := blobs.Blob(digest)
	if err != nil {
		return err
	}
	data, err := b.Bytes()
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

// digestFile is the file name of a blob in a CTF: "sha256:ab" is
// "sha256.ab".
func digestFile(ref string) string {
	return strings.ReplaceAll(ref, ":", ".")
}

// fileFS is a file system holding data as component-descriptor.yaml.
func fileFS(data []byte) fs.FS {
	return singleFile{name: DescriptorFile, data: data}
}
