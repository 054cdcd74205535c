package landscape

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/internal/parallel"
	"github.com/lscli/lscli/internal/safefs"
	"github.com/lscli/lscli/landscaper/components/source"
)

// Loader reads landscapes. The zero value reads from the host filesystem into
// namespace "default".
type Loader struct {
	// FS is the file system that paths name. Its paths are relative and use
	// forward slashes, as fs.FS requires. When FS is nil, the loader uses the
	// host operating system filesystem, and paths are OS paths, absolute or
	// relative to the working directory.
	FS fs.FS
	// Scheme maps kinds to Go types and holds Landscaper's defaulting
	// functions. It must know landscaper.gardener.cloud/v1alpha1 and core/v1.
	// Nil means fakecluster.NewScheme().
	Scheme *runtime.Scheme
	// DefaultNamespace is the namespace of objects that name none.
	// Empty means "default".
	DefaultNamespace string
	// Policy says which host files may be read when FS is nil: the paths
	// given to Load are added to its roots, so that a file found in a
	// folder may be a symbolic link only to a file below a root; only
	// regular files within its size limit are read. Nil means only below
	// the paths given to Load, with the default size limit.
	Policy *safefs.Policy
	// MaxYAMLNodes is how many nodes a document may hold once its aliases
	// are expanded. Zero means limits.Default.YAMLNodes.
	MaxYAMLNodes int64
	// Skip names files, as paths are named, that a walk of a directory
	// passes over: the config file's simulatedCluster.seeds, whose objects
	// are for a simulated cluster, not the landscape. A file given to Load
	// itself is read.
	Skip []string
	// Stdin is what the path "-" reads, as kubectl apply -f - does: YAML
	// documents, shown as StdinName in messages. It is read once, within
	// the policy's file size limit. Nil makes "-" a problem to report.
	Stdin io.Reader
}

// StdinPath is the path that names standard input, and StdinName how
// messages name it.
const (
	StdinPath = "-"
	StdinName = "<stdin>"
)

// Load reads the files and directories named by paths, in that order, and
// returns the objects they define. No paths means ".". A file is read whatever
// its name; a directory is walked as the package documentation describes.
// A file named twice, directly or through a directory, is read once.
//
// When anything is wrong, Load returns a nil Landscape and a [*LoadError]
// listing every problem; other errors do not occur.
func (l *Loader) Load(paths ...string) (*Landscape, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	ld := &load{
		scheme:    l.Scheme,
		maxNodes:  l.MaxYAMLNodes,
		namespace: l.DefaultNamespace,
		defined:   map[objectKey]location{},
		read:      map[string]bool{},
		skip:      map[string]bool{},
	}
	if ld.scheme == nil {
		ld.scheme = defaultScheme()
	}
	if ld.namespace == "" {
		ld.namespace = "default"
	}
	var files []file
	policy := l.Policy.With(paths...)
	for _, p := range l.Skip {
		if f := l.open(p, policy); f.problem == "" {
			ld.skip[f.key] = true
		}
	}
	for _, p := range paths {
		files = append(files, ld.collect(l.open(p, policy))...)
	}
	for _, results := range ld.readFiles(files) {
		for _, r := range results {
			ld.add(r)
		}
	}
	if len(ld.problems) > 0 {
		return nil, &LoadError{Problems: ld.problems}
	}
	return &Landscape{Objects: ld.objects}, nil
}

// readFiles reads files concurrently, as parsing YAML takes most of the
// time, and returns the results in the order of files.
func (ld *load) readFiles(files []file) [][]docResult {
	results := make([][]docResult, len(files))
	limit := make(chan struct{}, goruntime.GOMAXPROCS(0))
	parallel.Go(len(files), func(i int) {
		limit <- struct{}{}
		defer func() { <-limit }()
		results[i] = ld.readFile(files[i])
	})
	return results
}

// defaultScheme is the scheme of a Loader whose Scheme is nil. A scheme is
// safe for concurrent use once built, so all such loaders share it.
var defaultScheme = sync.OnceValue(fakecluster.NewScheme)

// load is the state of one call to Load. Only readFile and what it calls run
// concurrently; they use scheme and namespace and change nothing.
type load struct {
	scheme    *runtime.Scheme
	maxNodes  int64
	namespace string
	problems  []Problem
	objects   []Document
	// defined says where each object was defined, to find duplicates.
	defined map[objectKey]location
	// read holds the keys of the files already collected.
	read map[string]bool
	// skip holds the keys of the files a walk passes over (Loader.Skip).
	skip map[string]bool
}

// file is a file or directory to read, or a problem found while looking for
// files.
type file struct {
	fsys fs.FS
	// name is the path in fsys.
	name string
	// display is the path as the user wrote it, with forward slashes.
	display string
	// key identifies the file across paths, for reading it only once.
	key string
	// problem, when set, is all there is to report about the file.
	problem string
	// data, when set, is the content, read already (standard input); fsys
	// and name are then unset.
	data []byte
}

// open resolves a path given to Load; host files are read through policy.
func (l *Loader) open(p string, policy *safefs.Policy) file {
	if p == StdinPath {
		return l.openStdin(policy)
	}
	if l.FS != nil {
		name := path.Clean(p)
		f := file{fsys: l.FS, name: name, display: name, key: name}
		if !fs.ValidPath(name) {
			f.problem = `not a valid path: want a relative path with forward slashes and no ".."`
		}
		return f
	}
	display := filepath.ToSlash(filepath.Clean(p))
	abs, err := filepath.Abs(p)
	if err != nil {
		return file{display: display, problem: err.Error()}
	}
	root := filepath.VolumeName(abs) + string(filepath.Separator)
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return file{display: display, problem: err.Error()}
	}
	name := filepath.ToSlash(rel)
	return file{fsys: policy.Dir(root), name: name, display: display, key: root + name}
}

// openStdin reads Stdin whole, once per Load (the path "-" named twice is
// read once, as every file).
func (l *Loader) openStdin(policy *safefs.Policy) file {
	f := file{display: StdinName, key: StdinPath}
	if l.Stdin == nil {
		return f.withProblem("standard input cannot be read here: name the files or folders instead")
	}
	max := policy.MaxFileSize()
	data, err := io.ReadAll(io.LimitReader(l.Stdin, max+1))
	switch {
	case err != nil:
		return f.withProblem(fmt.Sprintf("cannot read standard input: %v", err))
	case int64(len(data)) > max:
		return f.withProblem(fmt.Sprintf("standard input is larger than limits.fileSize (%s): raise it in lscli.yaml if that is intended", limits.Size(max)))
	}
	f.data = data
	return f
}

// child returns the file name, found by walking directory f.
func (f file) child(name string) file {
	rel := name
	if f.name != "." {
		rel = strings.TrimPrefix(name, f.name+"/")
	}
	c := f
	c.name = name
	c.display = path.Join(f.display, rel)
	c.key = strings.TrimSuffix(f.key, f.name) + name
	return c
}

// collect returns the files to read for the path f: f itself, or the YAML
// files below it, and the problems found on the way.
func (ld *load) collect(f file) []file {
	if f.problem != "" {
		return []file{f}
	}
	if f.data != nil {
		return ld.unread([]file{f})
	}
	info, err := fs.Stat(f.fsys, f.name)
	if err != nil {
		return []file{f.withProblem(describeFSError(err))}
	}
	if !info.IsDir() {
		return ld.unread([]file{f})
	}
	if isBlueprintDir(f.fsys, f.name) {
		return []file{f.withProblem("is a blueprint folder (its blueprint.yaml has kind Blueprint), not a landscape: " +
			"name the files or folders that hold the Installations")}
	}
	if isChartDir(f.fsys, f.name) {
		return []file{f.withProblem("is a helm chart folder (it has a Chart.yaml), not a landscape: " +
			"name the files or folders that hold the Installations")}
	}
	files := slices.DeleteFunc(walk(f), func(c file) bool { return c.problem == "" && ld.skip[c.key] })
	if len(files) == 0 {
		if tpls := templatesIn(f.fsys, f.name, templatesShown); len(tpls) > 0 {
			for i, name := range tpls {
				tpls[i] = f.child(name).display
			}
			return []file{f.withProblem("has no *.yaml or *.yml files, " + OnlyTemplates(tpls))}
		}
		return []file{f.withProblem("has no *.yaml or *.yml files (hidden, blueprint and helm chart folders are skipped)")}
	}
	return ld.unread(files)
}

// walk returns the YAML files below directory dir, sorted by path, and the
// problems found on the way.
func walk(dir file) []file {
	var files []file
	_ = fs.WalkDir(dir.fsys, dir.name, func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			files = append(files, dir.child(name).withProblem(describeFSError(err)))
		case name == dir.name:
		case strings.HasPrefix(d.Name(), ".") || d.IsDir() && (isBlueprintDir(dir.fsys, name) || isChartDir(dir.fsys, name) || isComponentDir(dir.fsys, name)):
			if d.IsDir() {
				return fs.SkipDir
			}
		case !d.IsDir() && isYAMLFile(name) && d.Name() != source.ConfigFileName:
			files = append(files, dir.child(name))
		}
		return nil
	})
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	return files
}

// withProblem returns f with a problem to report.
func (f file) withProblem(msg string) file {
	f.problem = msg
	return f
}

// unread returns the files that were not collected before and marks them.
func (ld *load) unread(files []file) []file {
	var fresh []file
	for _, f := range files {
		if f.problem != "" || !ld.read[f.key] {
			ld.read[f.key] = true
			fresh = append(fresh, f)
		}
	}
	return fresh
}

// isYAMLFile tells whether a walk should read the file name.
func isYAMLFile(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// isBlueprintDir tells whether dir holds a blueprint: a blueprint.yaml whose
// kind is Blueprint. Its other files are templates, not landscape objects.
func isBlueprintDir(fsys fs.FS, dir string) bool {
	data, err := fs.ReadFile(fsys, path.Join(dir, lsv1alpha1.BlueprintFileName))
	if err != nil {
		return false
	}
	var header struct {
		Kind string `json:"kind"`
	}
	return yaml.Unmarshal(data, &header) == nil && header.Kind == "Blueprint"
}

// isChartDir tells whether dir holds a helm chart (a Chart.yaml, as helm's
// chartutil.IsChartDir checks): its YAML files are chart metadata, values
// and templates for the helm deployer, not landscape objects.
func isChartDir(fsys fs.FS, dir string) bool {
	_, err := fs.Stat(fsys, path.Join(dir, "Chart.yaml"))
	return err == nil
}

// describeFSError says what went wrong with a file, without repeating its
// path (problems name the file already).
func describeFSError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var outside *safefs.OutsideError
	var notRegular *safefs.NotRegularError
	var tooLarge *limits.Error
	switch {
	case errors.As(err, &outside):
		return "not read: " + outside.Error()
	case errors.As(err, &notRegular):
		return "not read: " + notRegular.Error()
	case errors.As(err, &tooLarge):
		return "not read: " + tooLarge.Error()
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && errors.Is(err, fs.ErrInvalid) && !utf8.ValidString(pathErr.Path) {
		return "not read: its name is not valid UTF-8, which lscli cannot open: rename the file"
	}
	if pathErr != nil {
		return fmt.Sprintf("cannot %s: %v", pathErr.Op, pathErr.Err)
	}
	return err.Error()
}
