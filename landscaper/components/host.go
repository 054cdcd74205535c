package components

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing/fstest"

	"github.com/lscli/lscli/landscaper/components/source"
)

// hostFS opens folders of the host file system as roots that no path, and
// no symbolic link, can leave (os.Root).
type hostFS struct {
	mu    sync.Mutex
	roots []*os.Root
}

// open returns the root of the folder p, or, for a file, the root of its
// folder and the file's name in it ("." for a folder).
func (h *hostFS) open(p string) (source.Root, string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return source.Root{}, "", fmt.Errorf("%s: %w", filepath.ToSlash(p), errors.Unwrap(err))
	}
	dir, name := p, "."
	if !info.IsDir() {
		dir, name = filepath.Dir(p), filepath.Base(p)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return source.Root{}, "", err
	}
	h.mu.Lock()
	h.roots = append(h.roots, root)
	h.mu.Unlock()
	return source.Root{FS: root.FS(), Display: filepath.ToSlash(filepath.Clean(dir))}, name, nil
}

func (h *hostFS) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for _, r := range h.roots {
		errs = append(errs, r.Close())
	}
	h.roots = nil
	return errors.Join(errs...)
}

// singleFileFS shows only one file of a root, so that Discover looks at it
// alone.
type singleFileFS struct {
	root source.Root
	name string
}

func (s singleFileFS) Open(name string) (fs.File, error) {
	if name == "." {
		return fstest.MapFS{s.name: {}}.Open(".")
	}
	if name != s.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return s.root.FS.Open(name)
}

// hostFS returns the registry's host file system, made on first use.
func (r *Registry) hostFS() *hostFS {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.host == nil {
		r.host = &hostFS{}
	}
	return r.host
}
