package tarfs

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"
	"time"
)

// MaxSize bounds what ReadTar and Gunzip unpack, so that a bad archive
// cannot exhaust memory.
const MaxSize = 256 << 20

// IsGzip tells whether data starts with the gzip magic bytes.
func IsGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// Gunzip returns data uncompressed when it is gzip, else data itself.
func Gunzip(data []byte) ([]byte, error) {
	if !IsGzip(data) {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	if len(out) > MaxSize {
		return nil, fmt.Errorf("gunzip: more than %d bytes", MaxSize)
	}
	return out, nil
}

// Gzip compresses data without file name and modification time.
func Gzip(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return buf.Bytes()
}

// IsTar tells whether data (uncompressed) is a tar archive: its first
// header reads.
func IsTar(data []byte) bool {
	_, err := tar.NewReader(bytes.NewReader(data)).Next()
	return err == nil
}

// ReadTar reads a tar archive, gzip-compressed or not, into a file system.
// Entry names are cleaned; an entry that leaves the archive (absolute, or
// with "..") is an error. Links and special files are skipped.
func ReadTar(data []byte) (fstest.MapFS, error) {
	data, err := Gunzip(data)
	if err != nil {
		return nil, err
	}
	files := fstest.MapFS{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read tar: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." {
			continue
		}
		if !fs.ValidPath(name) {
			return nil, fmt.Errorf("read tar: entry %q leaves the archive", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			files[name] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		case tar.TypeReg:
			content, err := io.ReadAll(io.LimitReader(tr, MaxSize))
			if err != nil {
				return nil, fmt.Errorf("read tar entry %s: %w", name, err)
			}
			files[name] = &fstest.MapFile{Data: content, Mode: 0o644}
		}
	}
}

// FirstEntry returns the name of the first regular file or folder of a tar
// archive (gzip-compressed or not), "" when data is no tar archive.
func FirstEntry(data []byte) string {
	data, err := Gunzip(data)
	if err != nil {
		return ""
	}
	h, err := tar.NewReader(bytes.NewReader(data)).Next()
	if err != nil {
		return ""
	}
	return path.Clean(strings.TrimPrefix(h.Name, "./"))
}

// Options say what WriteTar puts into the archive.
type Options struct {
	// Prefix is put before every entry name (e.g. the folder's own name).
	Prefix string
	// Keep, when set, decides per file (path relative to the folder)
	// whether it goes into the archive. Folders are always walked.
	Keep func(rel string) bool
}

// WriteTar packs the folder dir of fsys into a tar archive, reproducibly:
// entries in lexical order, modification times zero, owners zero, mode
// 0755 for folders and 0644 for files. Symbolic links are not followed.
func WriteTar(fsys fs.FS, dir string, opts Options) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if dir == "." {
			rel = p
		}
		if rel == "." || rel == "" {
			return nil
		}
		return writeEntry(tw, fsys, p, path.Join(opts.Prefix, rel), d, opts.Keep == nil || d.IsDir() || opts.Keep(rel))
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeEntry writes one entry (p in fsys) named name, if keep.
func writeEntry(tw *tar.Writer, fsys fs.FS, p, name string, d fs.DirEntry, keep bool) error {
	h := &tar.Header{Name: name, ModTime: time.Unix(0, 0).UTC(), Format: tar.FormatPAX}
	switch {
	case d.IsDir():
		h.Typeflag, h.Mode, h.Name = tar.TypeDir, 0o755, name+"/"
		return tw.WriteHeader(h)
	case !d.Type().IsRegular() || !keep:
		return nil
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	h.Typeflag, h.Mode, h.Size = tar.TypeReg, 0o644, int64(len(data))
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err = tw.Write(data)
	return err
}
