package helm

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/lscli/lscli/internal/ociref"
	"github.com/lscli/lscli/reconcile"
)

// packageChart packs testdata/chart into a .tgz in a temporary folder.
func packageChart(t *testing.T) string {
	t.Helper()
	ch, err := loader.Load("testdata/chart")
	if err != nil {
		t.Fatal(err)
	}
	p, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadChart(t *testing.T) {
	tgz := packageChart(t)
	raw, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata/chart")
	charts := map[string]string{
		"registry.example/charts/demo:0.1.0":     "./testdata/chart",
		"registry.example/charts/any":            tgz,
		"https://charts.example/demo-0.1.0.tgz":  tgz,
		"https://charts.example/repo/demo:0.1.0": "testdata/chart",
		"https://charts.example/other/demo":      "testdata/chart",
		"component-resource-key":                 "testdata/chart",
		abs + "/":                                abs,
		"file://" + tgz:                          tgz,
	}
	tests := []struct {
		name    string
		chart   helmv1alpha1.Chart
		wantErr string
	}{
		{name: "local folder", chart: helmv1alpha1.Chart{Ref: "./testdata/chart"}},
		{name: "mapped absolute folder", chart: helmv1alpha1.Chart{Ref: abs + "/"}},
		{name: "mapped local tgz", chart: helmv1alpha1.Chart{Archive: &helmv1alpha1.ArchiveAccess{
			Remote: &helmv1alpha1.RemoteArchiveAccess{URL: "file://" + tgz}}}},
		{name: "absolute folder", chart: helmv1alpha1.Chart{Ref: abs},
			wantErr: `chart "` + abs + `" is not read: an absolute path, a path with .. or a file:// URL in a deploy item may lead anywhere on the host; map it under 'charts:' in lscli.yaml`},
		{name: "file URL", chart: helmv1alpha1.Chart{Ref: "file://testdata/chart"}, wantErr: `chart "file://testdata/chart" is not read`},
		{name: "dot dot", chart: helmv1alpha1.Chart{Ref: "./testdata/../testdata/chart"}, wantErr: `is not read: an absolute path, a path with ..`},
		{name: "file URL of a host file", chart: helmv1alpha1.Chart{Archive: &helmv1alpha1.ArchiveAccess{
			Remote: &helmv1alpha1.RemoteArchiveAccess{URL: "file:///etc/passwd"}}}, wantErr: `chart "file:///etc/passwd" is not read`},
		{name: "archive.raw", chart: helmv1alpha1.Chart{Archive: &helmv1alpha1.ArchiveAccess{
			Raw: base64.StdEncoding.EncodeToString(raw)}}},
		{name: "mapped OCI ref", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/demo:0.1.0"}},
		{name: "mapped OCI ref without version", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/any:0.1.0"}},
		{name: "mapped OCI ref without digest", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/demo:0.1.0@sha256:" + strings.Repeat("a", 64)}},
		{name: "mapped OCI ref without tag and digest", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/any:0.1.0@sha256:" + strings.Repeat("a", 64)}},
		{name: "mapped OCI ref without tag", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/any"}},
		// the guided tour's timeout-error chapter: version 0.0.5 of a
		// repository whose chart is 0.1.0 is not found.
		{name: "mapped OCI ref without version, other version", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/any:9.9.9"},
			wantErr: `chart "registry.example/charts/any:9.9.9" is not available locally: the charts map of lscli.yaml maps "registry.example/charts/any" (without a version) to ` +
				tgz + `, a chart of version 0.1.0, not 9.9.9, and a registry has no version it was not given; map "registry.example/charts/any:9.9.9" itself to a chart of version 9.9.9`},
		{name: "mapped archive URL", chart: helmv1alpha1.Chart{Archive: &helmv1alpha1.ArchiveAccess{
			Remote: &helmv1alpha1.RemoteArchiveAccess{URL: "https://charts.example/demo-0.1.0.tgz"}}}},
		{name: "mapped chart repo", chart: helmv1alpha1.Chart{HelmChartRepo: &helmv1alpha1.HelmChartRepo{
			HelmChartRepoUrl: "https://charts.example/repo/", HelmChartName: "demo", HelmChartVersion: "0.1.0"}}},
		{name: "mapped chart repo without version", chart: helmv1alpha1.Chart{HelmChartRepo: &helmv1alpha1.HelmChartRepo{
			HelmChartRepoUrl: "https://charts.example/other", HelmChartName: "demo", HelmChartVersion: "0.1.0"}}},
		{name: "mapped chart repo without version, other version", chart: helmv1alpha1.Chart{HelmChartRepo: &helmv1alpha1.HelmChartRepo{
			HelmChartRepoUrl: "https://charts.example/other", HelmChartName: "demo", HelmChartVersion: "2.0.0"}},
			wantErr: `maps "https://charts.example/other/demo" (without a version) to testdata/chart, a chart of version 0.1.0, not 2.0.0`},
		{name: "mapped resourceRef", chart: helmv1alpha1.Chart{ResourceRef: "component-resource-key"}},
		{name: "unmapped OCI ref", chart: helmv1alpha1.Chart{Ref: "registry.example/charts/nope:1.0.0"},
			wantErr: `chart "registry.example/charts/nope:1.0.0" is not available locally`},
		{name: "unmapped chart repo", chart: helmv1alpha1.Chart{HelmChartRepo: &helmv1alpha1.HelmChartRepo{
			HelmChartRepoUrl: "https://x", HelmChartName: "y", HelmChartVersion: "1"}}, wantErr: `under 'charts:' in lscli.yaml, e.g. charts: {"https://x/y:1": ./charts/mychart}`},
		{name: "fromResource", chart: helmv1alpha1.Chart{FromResource: &helmv1alpha1.RemoteChartReference{ResourceName: "c"}},
			wantErr: "chart.fromResource is no longer supported"},
		{name: "missing folder", chart: helmv1alpha1.Chart{Ref: "./testdata/nope"}, wantErr: "unable to load chart ./testdata/nope"},
		{name: "bad archive.raw", chart: helmv1alpha1.Chart{Archive: &helmv1alpha1.ArchiveAccess{Raw: "!!"}},
			wantErr: "unable to decode chart archive.raw"},
	}
	d := New(Options{Charts: charts})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, err := d.loadChart(tt.chart)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || reconcile.IsUnrecoverable(err) {
					t.Fatalf("err = %v, want a recoverable error (retried until the progressing timeout) containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ch.Name() != "demo" || len(ch.Templates) != 6 || len(ch.CRDObjects()) != 1 {
				t.Errorf("chart %s has %d templates and %d CRDs, want demo with 6 and 1",
					ch.Name(), len(ch.Templates), len(ch.CRDObjects()))
			}
		})
	}
}

// TestLoadChartFromFS reads charts from Options.FS, honouring .helmignore.
func TestLoadChartFromFS(t *testing.T) {
	dir := t.TempDir()
	tgz := packageChart(t)
	data, _ := os.ReadFile(tgz)
	if err := os.WriteFile(filepath.Join(dir, "demo.tgz"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "chart"), os.DirFS("testdata/chart")); err != nil {
		t.Fatal(err)
	}
	ignore := "templates/widget.yaml\n"
	if err := os.WriteFile(filepath.Join(dir, "chart", ".helmignore"), []byte(ignore), 0o644); err != nil {
		t.Fatal(err)
	}
	d := New(Options{FS: os.DirFS(dir)})
	for ref, templates := range map[string]int{"./chart": 5, "./demo.tgz": 6} {
		ch, err := d.loadChart(helmv1alpha1.Chart{Ref: ref})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if len(ch.Templates) != templates {
			t.Errorf("%s: %d templates, want %d", ref, len(ch.Templates), templates)
		}
	}
}

// TestChartIdentityDigest: a chart.ref pinned by digest, as an OCM transfer
// leaves it ("repo:tag@sha256:<hex>", or "repo@sha256:<hex>"), names the
// chart of the repository's last element and the tag; the charts map also
// maps it by the repository alone.
func TestChartIdentityDigest(t *testing.T) {
	const hex = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
	tests := []struct {
		ref, name, version, repo string
	}{
		{ref: "registry.example/charts/cert-manager:v1.13.3@sha256:" + hex, name: "cert-manager", version: "v1.13.3", repo: "registry.example/charts/cert-manager"},
		{ref: "registry.example/charts/cert-manager@sha256:" + hex, name: "cert-manager", version: "", repo: "registry.example/charts/cert-manager"},
		{ref: "registry.example:5000/charts/cert-manager:v1.13.3", name: "cert-manager", version: "v1.13.3", repo: "registry.example:5000/charts/cert-manager"},
		{ref: "registry.example:5000/charts/cert-manager", name: "cert-manager", version: "", repo: "registry.example:5000/charts/cert-manager"},
	}
	for _, tt := range tests {
		key, name, version := ChartIdentity(helmv1alpha1.Chart{Ref: tt.ref})
		if key != tt.ref || name != tt.name || version != tt.version {
			t.Errorf("ChartIdentity(%q) = %q, %q, %q; want %q, %q, %q", tt.ref, key, name, version, tt.ref, tt.name, tt.version)
		}
		if got, _, _ := ociref.Split(tt.ref); got != tt.repo {
			t.Errorf("ociref.Split(%q) repository = %q, want %q", tt.ref, got, tt.repo)
		}
	}
}
