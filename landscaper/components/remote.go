package components

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/internal/ociref"
	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// remote describes an access to content outside the component version.
type remote struct {
	// key is the config file key of the content: the artifacts key.
	key string
	// where says where the content is, for messages.
	where string
	// chartKeys are the charts keys that may map it, most specific first.
	chartKeys []string
	// chartName and chartVersion identify a chart found in the landscape.
	chartName, chartVersion string
}

// describeRemote returns the remote description of a, or false when lscli
// cannot read the access type at all.
func describeRemote(a access) (remote, bool) {
	switch accessKind(a.Type) {
	case "ociArtifact":
		// A reference pinned by digest alone has the digest for a version.
		repo, tag, digest := ociref.Split(a.ImageReference)
		return remote{key: a.ImageReference, where: "an OCI registry", chartKeys: ociref.MapKeys(a.ImageReference),
			chartName: path.Base(repo), chartVersion: firstOf(tag, digest)}, true
	case "helm":
		name, version, _ := strings.Cut(a.HelmChart, ":")
		if version == "" {
			version = a.Version
		}
		base := strings.TrimSuffix(a.HelmRepository, "/") + "/" + name
		return remote{key: base + ":" + version, where: "a helm chart repository", chartKeys: []string{base + ":" + version, base},
			chartName: name, chartVersion: version}, true
	case "ociBlob":
		return remote{key: a.Ref + "@" + a.Digest, where: "an OCI registry"}, true
	case "relativeOciReference":
		return remote{key: a.Reference, where: "the component's OCI repository"}, true
	case "localOciBlob":
		return remote{key: a.Digest, where: "the component's OCI repository"}, true
	case "gitHub":
		return remote{key: a.RepoURL + "@" + firstOf(a.Commit, a.Ref), where: "GitHub"}, true
	case "s3":
		return remote{key: "s3://" + firstOf(a.Bucket, a.BucketName) + "/" + firstOf(a.Key, a.ObjectKey), where: "S3"}, true
	case "wget":
		return remote{key: a.URL, where: "the web"}, true
	case "npm":
		return remote{key: "npm:" + a.Package + "@" + a.Version, where: "an npm registry"}, true
	case "maven":
		return remote{key: "maven:" + a.GroupID + ":" + a.ArtifactID + ":" + a.Version, where: "a maven repository"}, true
	case "git":
		return remote{key: a.Repository + "@" + firstOf(a.Commit, a.Ref), where: "a git repository"}, true
	}
	return remote{}, false
}

// remoteContent reads content that is outside the version from the file or
// folder the config file maps to it (for charts also a chart found in the
// landscape by name and version), or says which line would map it.
func (r *Registry) remoteContent(v *source.Version, res cdv2.Resource, a access, p Purpose) (*Content, error) {
	rem, ok := describeRemote(a)
	if !ok {
		return nil, &UnsupportedAccessError{Component: v.Key(), Resource: res.Name, AccessType: a.Type}
	}
	var other string
	if p == ForChart {
		c, found, o, err := r.chartContent(rem, a.MediaType)
		if found || err != nil {
			return c, err
		}
		other = o
	}
	if path, ok := r.cfg.Artifacts[rem.key]; ok && rem.key != "" {
		return r.pathContent(path, a.MediaType)
	}
	return nil, r.needsRegistry(v, res, a, rem, p, other)
}

// needsRegistry is the error for content lscli cannot find; other, for a
// chart, says that a charts key without the version maps a chart of another
// version ("" when none does).
func (r *Registry) needsRegistry(v *source.Version, res cdv2.Resource, a access, rem remote, p Purpose, other string) error {
	e := &NeedsRegistryError{Component: v.Key(), Resource: res.Name, ResourceType: res.Type, AccessType: a.Type,
		Reference: rem.key, Where: rem.where, Map: "artifacts", Key: rem.key, Hint: "./path/to/file-or-folder", File: r.cfg.File}
	switch p {
	case ForBlueprint:
		e.Map, e.Key, e.Hint = "blueprints", v.Key().Name+"/"+res.Name, "./path/to/blueprint-folder"
	case ForChart:
		if rem.chartName != "" {
			e.Detail = fmt.Sprintf("no local chart named %s with version %s was found", rem.chartName, rem.chartVersion)
			if other != "" {
				e.Detail = other + "; " + e.Detail
			}
			e.Map, e.Key, e.Hint = "charts", rem.chartKeys[0], "./path/to/"+rem.chartName
		}
	}
	return e
}

// chartContent finds a chart for rem: the charts map, then a chart in the
// landscape whose Chart.yaml has rem's name and version. A key without the
// version (the repository) maps only a chart of rem's version, as a
// registry serves only the versions it holds: for a chart of another
// version, other says so, and the chart is looked for by name and version.
func (r *Registry) chartContent(rem remote, mediaType string) (c *Content, found bool, other string, err error) {
	for i, k := range rem.chartKeys {
		p, ok := r.cfg.Charts[k]
		if !ok {
			continue
		}
		c, err := r.pathContent(p, mediaType)
		if c != nil {
			c.Chart = true
		}
		if i > 0 && err == nil {
			if version, ok := otherChartVersion(c, rem.chartVersion); ok {
				other = fmt.Sprintf("the charts map of %s maps %q (without a version) to %s, a chart of version %s, not %s, "+
					"and a registry has no version it was not given", fileOr(r.cfg.File), k, p, version, rem.chartVersion)
				break
			}
		}
		return c, true, "", err
	}
	if rem.chartName == "" {
		return nil, false, other, nil
	}
	var matches []source.Chart
	for _, ch := range r.discoveredCharts() {
		if ch.Name == rem.chartName && ch.Version == rem.chartVersion {
			matches = append(matches, ch)
		}
	}
	switch {
	case len(matches) == 0:
		return nil, false, other, nil
	case len(matches) == 1 || sameCharts(matches):
		return chartFile(matches[0]), true, "", nil
	}
	var where []string
	for _, m := range matches {
		where = append(where, m.Root.Show(m.Path))
	}
	return nil, true, "", fmt.Errorf("several local charts are named %s with version %s: %s; map one of them in %s:\n  charts:\n    %q: %s",
		rem.chartName, rem.chartVersion, strings.Join(where, ", "), fileOr(r.cfg.File), rem.chartKeys[0], where[0])
}

// otherChartVersion returns the version of the chart c when it is not
// version: a chart found by a key without the version must be of the
// version the access names. A digest, a chart without a version and content
// that is no chart are left to the load, which says why.
func otherChartVersion(c *Content, version string) (string, bool) {
	if version == "" || strings.Contains(version, ":") {
		return "", false
	}
	ch, err := ReadChart(c)
	if err != nil {
		return "", false
	}
	meta, err := source.FolderChartMeta(ch.Dir, ".")
	if err != nil || meta.Version == "" || meta.Version == version {
		return "", false
	}
	return meta.Version, true
}

// sameCharts reports whether every chart of charts has the same files:
// copies of one chart in several landscape folders, or a chart folder next to
// the archive helm package made of it, are one chart, not a choice to make.
// The archives are compared by their files (the top folder, which names the
// chart, left out), not their bytes, as an archive's times and order differ
// from the folder's.
func sameCharts(charts []source.Chart) bool {
	var first map[string][]byte
	for i, ch := range charts {
		files, err := chartFiles(ch)
		if err != nil {
			return false
		}
		if i == 0 {
			first = files
			continue
		}
		if len(files) != len(first) {
			return false
		}
		for name, data := range files {
			if other, ok := first[name]; !ok || !bytes.Equal(data, other) {
				return false
			}
		}
	}
	return true
}

// chartFiles returns the regular files of a chart by their path below the
// chart's top folder.
func chartFiles(ch source.Chart) (map[string][]byte, error) {
	b, err := source.ChartBlob(ch)
	if err != nil {
		return nil, err
	}
	data, err := b.Bytes()
	if err != nil {
		return nil, err
	}
	entries, err := tarfs.ReadTar(data)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", ch.Root.Show(ch.Path), err)
	}
	files := map[string][]byte{}
	for name, f := range entries {
		if f.Mode.IsDir() {
			continue
		}
		_, rel, ok := strings.Cut(name, "/")
		if !ok {
			return nil, fmt.Errorf("chart %s: %s is outside the chart's folder", ch.Root.Show(ch.Path), name)
		}
		files[rel] = f.Data
	}
	return files, nil
}

// chartFile is the content of a chart found in the landscape.
func chartFile(ch source.Chart) *Content {
	b, err := source.ChartBlob(ch)
	if err != nil {
		return &Content{Origin: ch.Root.Show(ch.Path), read: func() ([]byte, error) { return nil, err }}
	}
	return &Content{Origin: b.Origin, Dir: b.Dir, Chart: true, read: b.Bytes}
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// NamedChart finds the one helm chart in the landscape folders whose
// Chart.yaml has name and version, as for an ociArtifact or helm access
// that the charts map does not map: for a helm deploy item's chart.ref or
// helmChartRepo. found is false when there is none; several different
// charts are an error that says to map one under key.
//
// A key that names the artifact `ocm transfer` uploads a component's helm
// input as (<registry>/<referenceName>, see uploadArtifacts) is that input's
// chart, also in a folder the landscape walk skips (a hidden one), unless
// the charts map maps key: the user's mapping wins.
func (r *Registry) NamedChart(key, name, version string) (chart *Chart, found bool, err error) {
	if _, mapped := r.cfg.Charts[key]; !mapped {
		if c, ok, err := r.uploadedChart(key); ok || err != nil {
			if err != nil {
				return nil, true, err
			}
			ch, err := ReadChart(c)
			return ch, true, err
		}
	}
	c, found, _, err := r.chartContent(remote{chartKeys: []string{key}, chartName: name, chartVersion: version}, "")
	if !found || err != nil {
		return nil, found, err
	}
	ch, err := ReadChart(c)
	return ch, true, err
}
