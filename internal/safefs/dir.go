package safefs

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Dir returns a read-only fs.FS over the host folder dir in which p's
// checks apply to every file: see the package documentation. Errors are
// *fs.PathErrors naming the path within dir.
func (p *Policy) Dir(dir string) fs.FS {
	return dirFS{dir: dir, p: p}
}

// dirFS is Policy.Dir.
type dirFS struct {
	dir string
	p   *Policy
}

var (
	_ fs.StatFS    = dirFS{}
	_ fs.ReadDirFS = dirFS{}
)

// host returns the host path of name, or an error for an invalid name.
func (d dirFS) host(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

// Open opens name (see Policy.Open).
func (d dirFS) Open(name string) (fs.File, error) {
	path, err := d.host("open", name)
	if err != nil {
		return nil, err
	}
	f, err := d.p.Open(path)
	if err != nil {
		return nil, pathError("open", name, err)
	}
	return f, nil
}

// Stat resolves and checks name without opening it.
func (d dirFS) Stat(name string) (fs.FileInfo, error) {
	path, err := d.host("stat", name)
	if err != nil {
		return nil, err
	}
	_, info, err := d.p.Resolve(path)
	if err != nil {
		return nil, pathError("stat", name, err)
	}
	return info, nil
}

// ReadDir lists the folder name; entries are not followed or checked.
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	path, err := d.host("readdir", name)
	if err != nil {
		return nil, err
	}
	real, info, err := d.p.Resolve(path)
	if err == nil && !info.IsDir() {
		err = fs.ErrInvalid
	}
	if err != nil {
		return nil, pathError("readdir", name, err)
	}
	return os.ReadDir(real)
}

// pathError wraps err for name, unwrapping the operating system's own
// *fs.PathError, which names the host path.
func pathError(op, name string, err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}
