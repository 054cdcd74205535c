package blueprint

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Blueprint is a parsed blueprint and the files it comes with.
type Blueprint struct {
	// Info is blueprint.yaml, decoded and defaulted as Landscaper does.
	Info *lsv1alpha1.Blueprint
	// FS holds the blueprint's files, blueprint.yaml at its root.
	FS fs.FS
	// Source says where the blueprint came from, for messages and output:
	// "inline", or the folder it was read from.
	Source string
	// ComponentErr is why the installation's component versions could not
	// be resolved, when the config file's blueprints map gave the
	// blueprint instead: the component template functions name it.
	ComponentErr error
	// Ignored are the files of which Landscaper reads the first YAML
	// document only, though they hold more (see IgnoredDocuments).
	Ignored []IgnoredFile
}

// FromInline reads a blueprint from an inline filesystem, a YAML file
// system as Landscaper reads it (see ReadFilesystem).
//
// Its errors are Landscaper's (pkg/landscaper/blueprints/resolve.go), which
// an installation's lastError shows as they are.
func FromInline(filesystem lsv1alpha1.AnyJSON) (*Blueprint, error) {
	files, err := ReadFilesystem(filesystem.RawMessage)
	if err != nil {
		return nil, fmt.Errorf("unable to create yamlfs for inline blueprint: %w", err)
	}
	data, err := fs.ReadFile(files, lsv1alpha1.BlueprintFileName)
	if err != nil {
		return nil, fmt.Errorf("unable to read blueprint file from inline defined blueprint: %w", describe(err))
	}
	info := &lsv1alpha1.Blueprint{}
	if err := DecodeFile(data, info); err != nil {
		return nil, fmt.Errorf("unable to decode blueprint definition from inline defined blueprint. %w", err)
	}
	return &Blueprint{Info: info, FS: files, Source: "inline", Ignored: ignoredFiles(info, files, data)}, nil
}

// FromFS reads blueprint.yaml at the root of fsys, as Landscaper's
// blueprint resolution does (see DecodeFile): unknown keys and keys in
// another case are ignored, another apiVersion or kind than a Blueprint's
// is refused, and the defaults are applied.
func FromFS(fsys fs.FS) (*Blueprint, error) {
	data, err := fs.ReadFile(fsys, lsv1alpha1.BlueprintFileName)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", lsv1alpha1.BlueprintFileName, describe(err))
	}
	info := &lsv1alpha1.Blueprint{}
	if err := DecodeFile(data, info); err != nil {
		return nil, fmt.Errorf("decode %s: %w", lsv1alpha1.BlueprintFileName, err)
	}
	return &Blueprint{Info: info, FS: fsys, Ignored: ignoredFiles(info, fsys, data)}, nil
}

// describe shortens the errors of a missing file.
func describe(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no such file")
	}
	return err
}

// FilePath turns p, a path a blueprint names one of its files by (in
// templates' readFile, readDir and include, an execution's or a
// subinstallation's file, a blueprint:// schema), into a path of the
// blueprint's FS, as Landscaper's file system resolves it: relative to the
// blueprint's root whether or not it starts with "/", "." and empty
// elements dropped, ".." going up but never above the root. The root is
// ".".
func FilePath(p string) string {
	p = strings.TrimPrefix(path.Clean("/"+strings.TrimSpace(p)), "/")
	if p == "" {
		return "."
	}
	return p
}
