package helm

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/lscli/lscli/internal/ociref"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"
)

// loadChart loads the chart that ref names. Nothing is downloaded: a chart
// comes from archive.raw, from the local chart that Options.Charts maps the
// reference to, or from a relative local path in chart.ref ("./charts/app",
// read from the working directory). An absolute path, a path with "..", a
// file:// URL and a remote reference are read only when Options.Charts
// maps them: otherwise the error says which key to add. None of these
// errors fails the item by itself: as Landscaper's chart fetch errors, they
// are retried until the progressing timeout.
func (d *Deployer) loadChart(ref helmv1alpha1.Chart) (*chart.Chart, error) {
	if ref.Archive != nil && ref.Archive.Raw != "" {
		data, err := base64.StdEncoding.DecodeString(ref.Archive.Raw)
		if err != nil {
			return nil, fmt.Errorf("unable to decode chart archive.raw: %w", err)
		}
		ch, err := loader.LoadArchive(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("unable to load chart from archive.raw: %w", err)
		}
		return ch, nil
	}
	p, local, err := d.resolveChart(ref)
	switch {
	case err != nil:
		return nil, err
	case local != nil:
		return loadLocal(local)
	}
	ch, err := d.loadPath(p)
	if err != nil {
		return nil, fmt.Errorf("unable to load chart %s: %w", p, err)
	}
	return ch, nil
}

// resolveChart finds the chart ref names (not archive.raw): the path
// chartPath gives, or, for a reference that neither the charts map nor a
// local path resolves, the one chart of its name and version in the
// landscape folders, as for a component's chart.
func (d *Deployer) resolveChart(ref helmv1alpha1.Chart) (string, *LocalChart, error) {
	p, err := d.chartPath(ref)
	if !errors.Is(err, errNotLocal) && !errors.Is(err, errOtherVersion) {
		return p, nil, err
	}
	local, nerr := d.namedChart(ref)
	switch {
	case nerr != nil:
		return "", nil, nerr
	case local != nil:
		return "", local, nil
	}
	return "", nil, notNamed(err, ref)
}

// chartPath resolves ref to a local chart folder or archive.
func (d *Deployer) chartPath(ref helmv1alpha1.Chart) (string, error) {
	var keys []string
	switch {
	case ref.Archive != nil && ref.Archive.Remote != nil:
		keys = []string{ref.Archive.Remote.URL}
	case ref.Ref != "":
		keys = ociref.MapKeys(ref.Ref)
	case ref.HelmChartRepo != nil:
		r := ref.HelmChartRepo
		key := strings.TrimSuffix(r.HelmChartRepoUrl, "/") + "/" + r.HelmChartName
		keys = []string{key + ":" + r.HelmChartVersion, key}
	case ref.ResourceRef != "":
		keys = []string{ref.ResourceRef}
	default:
		return "", fmt.Errorf("chart.fromResource is no longer supported")
	}
	for i, k := range keys {
		p, ok := d.opts.Charts[k]
		if !ok {
			continue
		}
		if i > 0 {
			// A key without the version maps the repository: Landscaper
			// fetches the version the reference names, which a chart of
			// another version is not.
			if err := d.checkMappedVersion(ref, keys[0], k, p); err != nil {
				return "", err
			}
		}
		return p, nil
	}
	if p, ok := localPath(keys[0]); ok {
		if unsafeLocalPath(keys[0]) {
			return "", fmt.Errorf("chart %q is not read: an absolute path, a path with .. or a file:// URL "+
				"in a deploy item may lead anywhere on the host; map it under 'charts:' in lscli.yaml, e.g. charts: {%q: ./charts/mychart}, "+
				"or use a path relative to the working directory", keys[0], keys[0])
		}
		return p, nil
	}
	return "", fmt.Errorf("chart %q %w: lscli downloads nothing; "+
		"map it to a local chart folder or .tgz under 'charts:' in lscli.yaml, e.g. charts: {%q: ./charts/mychart}", keys[0], errNotLocal, keys[0])
}

// errNotLocal is wrapped by chartPath's error for a reference that neither
// the charts map nor a local path resolves.
var errNotLocal = errors.New("is not available locally")

// errOtherVersion is wrapped by chartPath's error for a reference whose
// version the charts map maps, without the version, to a chart of another
// version.
var errOtherVersion = errors.New("is not available locally")

// checkMappedVersion checks that the chart at p, which the charts map maps
// key (ref's reference full without its version) to, has the version ref
// names: in a registry, repo:0.0.5 is not found because repo:1.0.0 is
// there. A chart that cannot be loaded is left to the load, which says why.
func (d *Deployer) checkMappedVersion(ref helmv1alpha1.Chart, full, key, p string) error {
	_, _, version := ChartIdentity(ref)
	if version == "" {
		return nil
	}
	ch, err := d.loadPath(p)
	if err != nil || ch.Metadata == nil || ch.Metadata.Version == version {
		return nil
	}
	return fmt.Errorf("chart %q %w: the charts map of lscli.yaml maps %q (without a version) to %s, "+
		"a chart of version %s, not %s, and a registry has no version it was not given; "+
		"map %q itself to a chart of version %s, e.g. charts: {%q: ./charts/mychart}",
		full, errOtherVersion, key, p, ch.Metadata.Version, version, full, version, full)
}

// namedChart is the chart Options.Resources finds by the name and version
// of a chart.ref (its last path element and its tag) or a helmChartRepo,
// nil when there is none or no Resources.
func (d *Deployer) namedChart(ref helmv1alpha1.Chart) (*LocalChart, error) {
	key, name, version := ChartIdentity(ref)
	if d.opts.Resources == nil || name == "" || version == "" {
		return nil, nil
	}
	return d.opts.Resources.NamedChart(key, name, version)
}

// ChartIdentity returns the reference of a chart.ref or helmChartRepo (as
// the charts map keys it) and the chart name and version it names; empty
// for other charts.
func ChartIdentity(ref helmv1alpha1.Chart) (key, name, version string) {
	switch {
	case ref.Ref != "":
		if _, local := localPath(ref.Ref); local {
			return "", "", ""
		}
		repo, tag, _ := ociref.Split(ref.Ref)
		return ref.Ref, path.Base(repo), tag
	case ref.HelmChartRepo != nil:
		r := ref.HelmChartRepo
		return strings.TrimSuffix(r.HelmChartRepoUrl, "/") + "/" + r.HelmChartName + ":" + r.HelmChartVersion, r.HelmChartName, r.HelmChartVersion
	}
	return "", "", ""
}

// localPath reports whether ref names a local file and returns its path.
func localPath(ref string) (string, bool) {
	if p, ok := strings.CutPrefix(ref, "file://"); ok {
		return p, true
	}
	for _, prefix := range []string{"/", "./", "../"} {
		if strings.HasPrefix(ref, prefix) {
			return ref, true
		}
	}
	return "", false
}

// unsafeLocalPath tells whether the local reference ref may lead outside
// the working directory: a file:// URL, an absolute path, or a path with a
// ".." element.
func unsafeLocalPath(ref string) bool {
	if strings.HasPrefix(ref, "file://") || strings.HasPrefix(ref, "/") {
		return true
	}
	return slices.Contains(strings.Split(filepath.ToSlash(ref), "/"), "..")
}

// loadPath loads a chart folder or archive from Options.FS, or from the host
// filesystem when FS is nil: through Options.Policy, so that symbolic links
// lead only below its roots and only regular files within its size limit
// are read.
func (d *Deployer) loadPath(p string) (*chart.Chart, error) {
	fsys := d.opts.FS
	if fsys == nil {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fsys, p = d.policy().Dir(string(filepath.Separator)), filepath.ToSlash(abs)
	}
	p = path.Clean(strings.TrimPrefix(p, "/"))
	fi, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		f, err := fsys.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return loader.LoadArchive(f)
	}
	files, err := chartFiles(fsys, p)
	if err != nil {
		return nil, err
	}
	return loader.LoadFiles(files)
}

// chartFiles reads the files of the chart folder dir in fsys, leaving out
// what its .helmignore ignores, as helm's directory loader does.
func chartFiles(fsys fs.FS, dir string) ([]*loader.BufferedFile, error) {
	rules := ignore.Empty()
	if data, err := fs.ReadFile(fsys, path.Join(dir, ignore.HelmIgnore)); err == nil {
		if rules, err = ignore.Parse(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("parse %s: %w", ignore.HelmIgnore, err)
		}
	}
	rules.AddDefaults()
	var files []*loader.BufferedFile
	err := fs.WalkDir(fsys, dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		fi, err := fs.Stat(fsys, p)
		if err != nil {
			return err
		}
		if rules.Ignore(rel, fi) {
			if de.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		files = append(files, &loader.BufferedFile{Name: rel, Data: data})
		return err
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, err
}

// FindChart says whether the chart ref names is found where the deployer
// would load it from (charts maps it, it is a local path, or resources
// finds the one chart of its name and version), for a dry run; its error is
// the deployer's. A chart.resourceRef is not looked at here.
func FindChart(ref helmv1alpha1.Chart, charts map[string]string, resources ResourceCharts) error {
	if ref.ResourceRef != "" || ref.Archive != nil && ref.Archive.Raw != "" {
		return nil
	}
	d := &Deployer{opts: Options{Charts: charts, Resources: resources}}
	_, _, err := d.resolveChart(ref)
	return err
}

// notNamed adds to err, chartPath's error for ref, that no local chart has
// ref's name and version either.
func notNamed(err error, ref helmv1alpha1.Chart) error {
	if _, name, version := ChartIdentity(ref); name != "" && version != "" {
		return fmt.Errorf("%w (no chart in the landscape folders is named %s with version %s either)", err, name, version)
	}
	return err
}
