package cmd

import (
	"os"
	"path/filepath"
	"strings"
)

// DefaultConfigFile is the config file's name: in the working directory, or
// in a landscape folder given as an argument.
const DefaultConfigFile = "lscli.yaml"

// configChoice is the config file a command reads, and what the user should
// hear about the ones it does not read.
type configChoice struct {
	// path is the file to read; empty means none.
	path string
	// fromState is true when path is the config file the state was last
	// saved with: the state folder is chosen already, whatever the file's
	// state key says.
	fromState bool
	// notes are lines for stderr about config files that are not used.
	notes []string
}

// pickConfig chooses the config file of a command: explicit (--config or
// LSCLI_CONFIG) when given; else the lscli.yaml of the landscape folder given
// as an argument (several folders with config files of their own are
// ambiguous: invalid input); else lscli.yaml in the working directory; else
// the config file the state was last saved with (saved, asked only then), so
// that `lscli trigger NAME` after `lscli reconcile FOLDER` runs with the
// folder's lscli.yaml as the reconcile did. Every other lscli.yaml next to
// the landscape is named in a note, so a file that is not read never goes
// unnoticed (the state's, when the working directory's wins, by
// noteSavedConfig).
func pickConfig(explicit string, paths []string, saved func() string) (configChoice, error) {
	folders, besides := landscapeConfigs(paths)
	var c configChoice
	switch {
	case explicit != "":
		c.path = explicit
		for _, p := range folders {
			c.note(p, "--config "+explicit+" is read instead")
		}
	case len(folders) > 1:
		return c, invalidf("the landscape folders have config files of their own (%s): lscli reads one; choose it with --config",
			strings.Join(folders, ", "))
	case len(folders) == 1:
		c.path = folders[0]
		if exists(DefaultConfigFile) && !sameFile(DefaultConfigFile, c.path) {
			c.note(DefaultConfigFile, "the landscape folder's "+c.path+" is read instead")
		}
	case exists(DefaultConfigFile):
		c.path = DefaultConfigFile
	default:
		switch s := saved(); {
		case s != "" && exists(s):
			c.path, c.fromState = s, true
		case s != "":
			c.notes = append(c.notes, "note: "+filepath.ToSlash(s)+", the config file the state was last saved with, is gone: "+
				"running without a config file; pass --config FILE to use another")
		}
	}
	for _, p := range besides {
		if c.path == "" || !sameFile(p, c.path) {
			c.note(p, "a folder's lscli.yaml is read when the folder is the argument; or pass --config "+p)
		}
	}
	return c, nil
}

// noteSavedConfig adds a note when the working directory's lscli.yaml is
// read by a command without paths although the config file the state in use
// was last saved with (saved, asked only then) is another.
func (c *configChoice) noteSavedConfig(paths []string, savedFile func() string) {
	if c.path != DefaultConfigFile || len(paths) > 0 {
		return
	}
	saved := savedFile()
	if saved == "" || sameFile(saved, c.path) {
		return
	}
	c.notes = append(c.notes, "note: "+filepath.ToSlash(saved)+", the config file the state was last saved with, is not used: "+
		DefaultConfigFile+" of the working directory is read instead; pass --config "+filepath.ToSlash(saved)+" to use it")
}

// note adds a note that the config file path is not used, and why.
func (c *configChoice) note(path, why string) {
	if c.path != "" && sameFile(path, c.path) {
		return
	}
	c.notes = append(c.notes, "note: "+filepath.ToSlash(path)+" is not used: "+why)
}

// landscapeConfigs returns the config files of the folders among paths, and
// those next to the files among paths, each once.
func landscapeConfigs(paths []string) (folders, besides []string) {
	seen := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue // the loader reports it
		}
		dir := filepath.Dir(p)
		if fi.IsDir() {
			dir = p
		}
		cfg := filepath.Join(dir, DefaultConfigFile)
		key, err := filepath.Abs(cfg)
		if err != nil || seen[key] || !exists(cfg) {
			continue
		}
		seen[key] = true
		if fi.IsDir() {
			folders = append(folders, filepath.ToSlash(cfg))
		} else {
			besides = append(besides, filepath.ToSlash(cfg))
		}
	}
	return folders, besides
}

// exists reports whether path is a regular file.
func exists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// sameFile reports whether a and b are the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
