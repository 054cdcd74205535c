package source

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// Media types of built blobs, as the ocm CLI sets them.
const (
	mediaTypeTar       = "application/x-tar"
	mediaTypeTgz       = "application/x-tgz"
	mediaTypeOctet     = "application/octet-stream"
	mediaTypeGzip      = "application/gzip"
	mediaTypeHelmOCI   = "application/vnd.oci.image.manifest.v1+tar+gzip"
	localBlobType      = "localBlob"
	chartFile          = "Chart.yaml"
	sha256ReferenceFmt = "sha256:%s"
)

// input is a constructor resource's input.
type input struct {
	Type           string   `json:"type"`
	Path           string   `json:"path"`
	MediaType      string   `json:"mediaType"`
	Compress       bool     `json:"compress"`
	PreserveDir    bool     `json:"preserveDir"`
	IncludeFiles   []string `json:"includeFiles"`
	ExcludeFiles   []string `json:"excludeFiles"`
	FollowSymlinks bool     `json:"followSymlinks"`
	// helm
	Version        string `json:"version"`
	Repository     string `json:"repository"`
	HelmRepository string `json:"helmRepository"`
}

// localRef is the localBlob access of a built blob.
type localRef struct {
	LocalReference string `json:"localReference"`
	MediaType      string `json:"mediaType"`
	ReferenceName  string `json:"referenceName,omitempty"`
}

// typed returns the access as a typed object.
func (r localRef) typed() (*cdv2.UnstructuredTypedObject, error) {
	obj := map[string]any{"type": localBlobType, "localReference": r.LocalReference, "mediaType": r.MediaType}
	if r.ReferenceName != "" {
		obj["referenceName"] = r.ReferenceName
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	u := &cdv2.UnstructuredTypedObject{}
	if err := json.Unmarshal(data, u); err != nil {
		return nil, err
	}
	return u, nil
}

// input builds the blob of in.
func (b *builder) input(in *input) (*Blob, localRef, error) {
	switch strings.ToLower(strings.TrimSuffix(in.Type, "/v1")) {
	case "dir":
		return b.dir(in)
	case "file":
		return b.file(in)
	case "helm":
		return b.helm(in)
	case "":
		return nil, localRef{}, errors.New("input type is required")
	}
	return nil, localRef{}, fmt.Errorf("input type %q is not supported by lscli, which builds only dir, file and "+
		"helm (a local chart) inputs: the others need the network, a container daemon or a tool; "+
		"build the component with the ocm CLI and keep the component archive in the landscape instead", in.Type)
}

// resolve returns the path of in.path in the root: relative to the
// constructor file, and inside the root.
func (b *builder) resolve(in *input) (string, error) {
	if in.Path == "" {
		return "", errors.New("path is required")
	}
	if path.IsAbs(in.Path) {
		return "", fmt.Errorf("path %s is absolute: lscli reads only inside %s; use a path relative to the constructor file", in.Path, b.root.Show("."))
	}
	p := path.Join(b.base, in.Path)
	if !fs.ValidPath(p) {
		return "", fmt.Errorf("path %s leaves %s, the folder lscli reads: give lscli the folder that holds both "+
			"(or map it under components: in lscli.yaml)", in.Path, b.root.Show("."))
	}
	if _, err := fs.Stat(b.root.FS, p); err != nil {
		return "", fmt.Errorf("path %s: %s does not exist", in.Path, b.root.Show(p))
	}
	return p, nil
}

// dir packs a folder as tar (gzip with compress).
func (b *builder) dir(in *input) (*Blob, localRef, error) {
	p, err := b.resolve(in)
	if err != nil {
		return nil, localRef{}, err
	}
	if info, _ := fs.Stat(b.root.FS, p); !info.IsDir() {
		return nil, localRef{}, fmt.Errorf("path %s is no directory", in.Path)
	}
	opts := tarfs.Options{Keep: filter(in.IncludeFiles, in.ExcludeFiles)}
	if in.PreserveDir {
		opts.Prefix = path.Base(p)
	}
	data, err := tarfs.WriteTar(b.root.FS, p, opts)
	if err != nil {
		return nil, localRef{}, fmt.Errorf("pack %s: %w", b.root.Show(p), err)
	}
	mediaType := defaultString(in.MediaType, mediaTypeTar)
	if in.Compress {
		data, mediaType = tarfs.Gzip(data), defaultString(in.MediaType, mediaTypeTgz)
	}
	blob := &Blob{Origin: b.root.Show(p), MediaType: mediaType, read: func() ([]byte, error) { return data, nil }}
	if len(in.IncludeFiles) == 0 && len(in.ExcludeFiles) == 0 && !in.PreserveDir {
		if blob.Dir, err = fs.Sub(b.root.FS, p); err != nil {
			return nil, localRef{}, err
		}
	}
	return blob, localRef{LocalReference: digestRef(data), MediaType: mediaType}, nil
}

// file is a file as it is (gzip with compress).
func (b *builder) file(in *input) (*Blob, localRef, error) {
	p, err := b.resolve(in)
	if err != nil {
		return nil, localRef{}, err
	}
	data, err := fs.ReadFile(b.root.FS, p)
	if err != nil {
		return nil, localRef{}, fmt.Errorf("read %s: %w", b.root.Show(p), err)
	}
	mediaType := defaultString(in.MediaType, mediaTypeOctet)
	if in.Compress {
		data, mediaType = tarfs.Gzip(data), defaultString(in.MediaType, mediaTypeGzip)
	}
	blob := &Blob{Origin: b.root.Show(p), MediaType: mediaType, read: func() ([]byte, error) { return data, nil }}
	return blob, localRef{LocalReference: digestRef(data), MediaType: mediaType}, nil
}

// helm is a local chart, a folder or a .tgz. lscli keeps the chart as it
// is (the ocm CLI stores it as an OCI artifact).
func (b *builder) helm(in *input) (*Blob, localRef, error) {
	if in.HelmRepository != "" {
		return nil, localRef{}, fmt.Errorf("helmRepository %s: lscli downloads nothing; download the chart and give its folder as path", in.HelmRepository)
	}
	p, err := b.resolve(in)
	if err != nil {
		return nil, localRef{}, err
	}
	blob, meta, data, err := readChart(b.root, p)
	if err != nil {
		return nil, localRef{}, err
	}
	version := meta.Version
	if in.Version != "" {
		version = in.Version
	}
	// OCM's hint: the repository below the component's name, an absolute
	// one (a leading /) as it is.
	name := b.component.Name + "/" + meta.Name
	switch {
	case strings.HasPrefix(in.Repository, "/"):
		name = in.Repository[1:]
	case in.Repository != "":
		name = b.component.Name + "/" + in.Repository
	}
	blob.MediaType = mediaTypeHelmOCI
	return blob, localRef{LocalReference: digestRef(data), MediaType: mediaTypeHelmOCI, ReferenceName: name + ":" + version}, nil
}

// ChartMeta is what lscli reads from a Chart.yaml.
type ChartMeta struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// readChart reads the chart folder or archive p of root: a chart blob, its
// metadata and its bytes as a reproducible tgz.
func readChart(root Root, p string) (*Blob, ChartMeta, []byte, error) {
	info, err := fs.Stat(root.FS, p)
	if err != nil {
		return nil, ChartMeta{}, nil, err
	}
	if !info.IsDir() {
		data, err := fs.ReadFile(root.FS, p)
		if err != nil {
			return nil, ChartMeta{}, nil, err
		}
		meta, err := ArchiveChartMeta(data)
		if err != nil {
			return nil, meta, nil, fmt.Errorf("%s: %w", root.Show(p), err)
		}
		return &Blob{Origin: root.Show(p), Chart: true, read: func() ([]byte, error) { return data, nil }}, meta, data, nil
	}
	meta, err := FolderChartMeta(root.FS, p)
	if err != nil {
		return nil, meta, nil, fmt.Errorf("%s: %w", root.Show(p), err)
	}
	tarball, err := tarfs.WriteTar(root.FS, p, tarfs.Options{Prefix: meta.Name})
	if err != nil {
		return nil, meta, nil, err
	}
	data := tarfs.Gzip(tarball)
	sub, err := fs.Sub(root.FS, p)
	if err != nil {
		return nil, meta, nil, err
	}
	return &Blob{Origin: root.Show(p), Chart: true, Dir: sub, read: func() ([]byte, error) { return data, nil }}, meta, data, nil
}

// FolderChartMeta reads the Chart.yaml of the chart folder dir.
func FolderChartMeta(fsys fs.FS, dir string) (ChartMeta, error) {
	data, err := fs.ReadFile(fsys, path.Join(dir, chartFile))
	if err != nil {
		return ChartMeta{}, fmt.Errorf("no %s: not a helm chart", chartFile)
	}
	return parseChartMeta(data)
}

// ArchiveChartMeta reads the Chart.yaml of a chart archive (tgz or tar,
// with the chart in a top folder).
func ArchiveChartMeta(data []byte) (ChartMeta, error) {
	files, err := tarfs.ReadTar(data)
	if err != nil {
		return ChartMeta{}, err
	}
	matches, _ := fs.Glob(files, "*/"+chartFile)
	if len(matches) == 0 {
		return ChartMeta{}, fmt.Errorf("no */%s: not a helm chart archive", chartFile)
	}
	return parseChartMeta(files[matches[0]].Data)
}

func parseChartMeta(data []byte) (ChartMeta, error) {
	var m ChartMeta
	if err := yaml.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", chartFile, err)
	}
	if m.Name == "" {
		return m, fmt.Errorf("%s has no name", chartFile)
	}
	return m, nil
}

// filter returns the file filter of includeFiles and excludeFiles (shell
// patterns on paths relative to the folder; exclusion wins), nil for none.
func filter(include, exclude []string) func(string) bool {
	if len(include) == 0 && len(exclude) == 0 {
		return nil
	}
	return func(rel string) bool {
		for _, p := range exclude {
			if ok, _ := path.Match(p, rel); ok {
				return false
			}
		}
		if len(include) == 0 {
			return true
		}
		for _, p := range include {
			if ok, _ := path.Match(p, rel); ok {
				return true
			}
		}
		return false
	}
}

// digestRef is the local reference of a blob: "sha256:<hex>".
func digestRef(data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf(sha256ReferenceFmt, hex.EncodeToString(sum[:]))
}

func defaultString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ChartBlob returns the chart ch as a blob: the folder, or the archive.
func ChartBlob(ch Chart) (*Blob, error) {
	b, _, _, err := readChart(ch.Root, ch.Path)
	return b, err
}
