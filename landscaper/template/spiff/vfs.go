package spiff

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"

	"github.com/lscli/lscli/internal/safefs"
)

// FileSystem copies the files of fsys into an in-memory file system, the
// kind of file system Spiff reads. Blueprints are small, so a copy is cheap.
// Files that are not regular (named pipes, devices, sockets), directly or
// behind a symbolic link, are left out unread: Spiff would block or never
// end reading them. Any other error reading a file (e.g. a link that
// leads outside the landscape, see package safefs) fails the copy.
func FileSystem(fsys fs.FS) (vfs.FileSystem, error) {
	mem := memoryfs.New()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := "/" + p
		switch {
		case d.IsDir():
			if p == "." {
				return nil
			}
			return mem.MkdirAll(name, 0o755)
		case d.Type()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) != 0:
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		var notRegular *safefs.NotRegularError
		if errors.As(err, &notRegular) {
			return nil
		}
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
