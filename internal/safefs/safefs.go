package safefs

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lscli/lscli/internal/limits"
)

// Policy says where lscli may read. The zero value allows no root.
type Policy struct {
	// roots are absolute, cleaned, with symbolic links resolved.
	roots []string
	// maxFileSize is the largest file read, in bytes.
	maxFileSize int64
}

// NewPolicy returns a policy that reads files of at most maxFileSize bytes
// (zero: limits.Default.FileSize) below paths, each a folder or a file,
// relative to the working directory or absolute.
func NewPolicy(maxFileSize int64, paths ...string) *Policy {
	if maxFileSize <= 0 {
		maxFileSize = limits.Default.FileSize
	}
	return (&Policy{maxFileSize: maxFileSize}).With(paths...)
}

// With returns a copy of p that also reads below paths. A nil p is a
// policy with the default file size.
func (p *Policy) With(paths ...string) *Policy {
	q := &Policy{maxFileSize: limits.Default.FileSize}
	if p != nil {
		q.roots, q.maxFileSize = slices.Clone(p.roots), p.maxFileSize
	}
	for _, path := range paths {
		if root, err := realPath(path); err == nil && !slices.Contains(q.roots, root) {
			q.roots = append(q.roots, root)
		}
	}
	return q
}

// MaxFileSize is the largest file p reads, in bytes.
func (p *Policy) MaxFileSize() int64 { return p.maxFileSize }

// realPath is path made absolute with symbolic links resolved; a path that
// does not exist (yet) is only made absolute.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return filepath.Clean(abs), nil
}

// Allows reports whether the real path real (absolute, links resolved)
// lies below one of p's roots.
func (p *Policy) Allows(real string) bool {
	for _, root := range p.roots {
		if real == root || strings.HasPrefix(real, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// OutsideError is a path whose symbolic links lead outside the roots.
type OutsideError struct {
	// Real is where the path leads.
	Real string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("it leads to %s (symbolic links resolved), outside the landscape, the working directory "+
		"and the folders lscli.yaml maps: lscli reads nothing else", filepath.ToSlash(e.Real))
}

// NotRegularError is a file that is not a regular file or folder.
type NotRegularError struct {
	// Mode is the file's mode.
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("it is %s, not a regular file: lscli reads only regular files", ModeName(e.Mode))
}

// ModeName names the type of a file that is not regular, as "a named pipe
// (FIFO)".
func ModeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file (" + m.String() + ")"
}

// Resolve checks the host path path: it returns its real path and file
// info when p allows it and it is a folder or a regular file of at most the
// maximum size, else an error (*OutsideError, *NotRegularError,
// *limits.Error, or the operating system's).
func (p *Policy) Resolve(path string) (string, fs.FileInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, err
	}
	if !p.Allows(real) {
		return "", nil, &OutsideError{Real: real}
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", nil, err
	}
	if err := p.checkFile(info); err != nil {
		return "", nil, err
	}
	return real, info, nil
}

// checkFile refuses what is neither a folder nor a regular file within
// the size limit.
func (p *Policy) checkFile(info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return nil
	case !info.Mode().IsRegular():
		return &NotRegularError{Mode: info.Mode()}
	case info.Size() > p.maxFileSize:
		return p.tooLarge(info.Size())
	}
	return nil
}

// tooLarge is the error of a file of size bytes.
func (p *Policy) tooLarge(size int64) error {
	return limits.Exceeded("fileSize", fmt.Sprintf("the file is %d bytes", size), limits.Size(p.maxFileSize))
}

// Open opens the host file path for reading after Resolve checked it. The
// file is opened without blocking and checked again (it may have changed in
// between), and reads past the size limit fail.
func (p *Policy) Open(path string) (fs.File, error) {
	real, info, err := p.Resolve(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return os.Open(real)
	}
	f, err := openNoBlock(real)
	if err != nil {
		return nil, err
	}
	info, err = f.Stat()
	if err == nil {
		err = p.checkFile(info)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return &limitedFile{File: f, p: p}, nil
}

// limitedFile fails reads past the size limit.
type limitedFile struct {
	*os.File
	p    *Policy
	read int64
}

func (f *limitedFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.read += int64(n)
	if f.read > f.p.maxFileSize {
		return n, f.p.tooLarge(f.read)
	}
	return n, err
}

var _ io.Reader = (*limitedFile)(nil)
