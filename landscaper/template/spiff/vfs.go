package spiff

import (
	"fmt"
	"io/fs"

	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"
)

// FileSystem copies the files of fsys into an in-memory file system, the
// kind of file system Spiff reads. Blueprints are small, so a copy is cheap.
func FileSystem(fsys fs.FS) (vfs.FileSystem, error) {
	mem := memoryfs.New()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := "/" + p
		if d.IsDir() {
			if p == "." {
				return nil
			}
			return mem.MkdirAll(name, 0o755)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return vfs.WriteFile(mem, name, data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy blueprint files for Spiff: %w", err)
	}
	return mem, nil
}
