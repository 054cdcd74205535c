package action

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/components"
)

// componentRoots returns the folders lscli discovers component versions in
// for the paths of a landscape: each path's folder (a file stands for its
// own), absolute, first the new ones, then the saved ones that still exist;
// a folder inside another one is left out.
func componentRoots(paths, saved []string) []string {
	var all []string
	for _, p := range paths {
		if p == landscape.StdinPath {
			p = "." // the documents of standard input are the working directory's
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if info, err := os.Stat(abs); err == nil && !info.IsDir() {
			abs = filepath.Dir(abs)
		}
		all = append(all, abs)
	}
	for _, p := range saved {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			all = append(all, p)
		}
	}
	var uniq, out []string
	for _, p := range all {
		uniq = appendNew(uniq, p)
	}
	for _, p := range uniq {
		if isOutermost(p, uniq) {
			out = append(out, p)
		}
	}
	return out
}

// isOutermost tells whether no other folder of dirs contains p.
func isOutermost(p string, dirs []string) bool {
	for _, d := range dirs {
		if d != p && strings.HasPrefix(p, d+string(filepath.Separator)) {
			return false
		}
	}
	return true
}

func appendNew(list []string, p string) []string {
	for _, x := range list {
		if x == p {
			return list
		}
	}
	return append(list, p)
}

// openComponents returns the component registry of cfg over roots. Roots
// are shown relative to the working directory when they are inside it.
func openComponents(cfg *Configuration, roots []string) (*components.Registry, error) {
	wd, _ := os.Getwd()
	shown := make([]string, len(roots))
	for i, r := range roots {
		shown[i] = r
		if rel, err := filepath.Rel(wd, r); err == nil && wd != "" && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			shown[i] = rel
		}
	}
	reg, err := components.New(cfg.Components, shown)
	if err != nil {
		return nil, Invalid(err)
	}
	return reg, nil
}

// checkTemplatesOnly is invalid input when the landscape has no objects
// but its folders hold *.yaml.tpl files: the guided tour's objects, which
// its scripts render with envsubst and lscli does not read.
func checkTemplatesOnly(ls *landscape.Landscape, paths []string) error {
	if ls == nil || len(ls.Objects) > 0 {
		return nil
	}
	tpls := landscape.TemplateFiles(paths)
	if len(tpls) == 0 {
		return nil
	}
	return Invalidf("%s: no Landscaper objects, %s", strings.Join(paths, ", "), landscape.OnlyTemplates(tpls))
}
