package spiff

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"

	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/internal/safefs"
)

// FileSystem copies the files of fsys into an in-memory file system, the
// kind of file system Spiff reads. Blueprints are small, so a copy is cheap.
// A YAML file whose expressions need guarding (lambdas, ranges, eval, see
// rewrite.go) is copied rewritten, since read() evaluates it.
// Files that are not regular (named pipes, devices, sockets), directly or
// behind a symbolic link, are left out unread: Spiff would block or never
// end reading them. Any other error reading a file (e.g. a link that
// leads outside the landscape, see package safefs) fails the copy.
//
// A YAML file whose aliases expand to more than maxNodes nodes (<= 0: the
// default) fails the copy: Spiff's read() would expand them.
func FileSystem(fsys fs.FS, maxNodes int64) (vfs.FileSystem, error) {
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
		if err := limits.CheckYAML(data, maxNodes); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return vfs.WriteFile(mem, name, guardFile(p, data), 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy blueprint files for Spiff: %w", err)
	}
	return mem, nil
}

// guardFile returns data, the file p, with its expressions guarded when
// it is YAML with expressions that need it (written back as Spiff writes
// YAML); else as it is.
func guardFile(p string, data []byte) []byte {
	if !bytes.Contains(data, []byte("((")) {
		return data
	}
	node, err := spiffyaml.Unmarshal(p, data)
	if err != nil {
		return data
	}
	node, changed, err := rewriteNode(node)
	if err != nil || !changed {
		return data
	}
	out, err := spiffyaml.Marshal(node)
	if err != nil {
		return data
	}
	return out
}
