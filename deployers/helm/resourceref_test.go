package helm

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/reconcile"
)

// fakeResources serves one chart folder, or an error.
type fakeResources struct {
	chart *LocalChart
	err   error
	keys  []string
}

func (f *fakeResources) ResourceChart(_ context.Context, _ *lsv1alpha1.DeployItem, key string) (*LocalChart, error) {
	f.keys = append(f.keys, key)
	return f.chart, f.err
}

// NamedChart serves the chart for name:version "demo:1.0.0" only.
func (f *fakeResources) NamedChart(key, name, version string) (*LocalChart, error) {
	f.keys = append(f.keys, key)
	if name+":"+version != "demo:1.0.0" {
		return nil, nil
	}
	return f.chart, f.err
}

// chart.resourceRef goes to Options.Resources, unless Charts maps the key;
// its errors fail the item.
func TestChartFromResourceRef(t *testing.T) {
	tgz, err := os.ReadFile(packageChart(t))
	if err != nil {
		t.Fatal(err)
	}
	item := func(key string) *item {
		return &item{req: deployer.Request{Item: &lsv1alpha1.DeployItem{}},
			cfg: &helmv1alpha1.ProviderConfiguration{Chart: helmv1alpha1.Chart{ResourceRef: key}}}
	}
	for name, local := range map[string]*LocalChart{
		"folder":  {Dir: os.DirFS("testdata/chart"), Origin: "testdata/chart"},
		"archive": {Archive: tgz, Origin: "demo.tgz"},
	} {
		res := &fakeResources{chart: local}
		d := New(Options{Resources: res})
		ch, err := d.chartOf(context.Background(), item("key"))
		if err != nil || ch.Name() != "demo" || len(res.keys) != 1 {
			t.Fatalf("%s: chart %v, err %v, keys %v", name, ch, err, res.keys)
		}
	}
	res := &fakeResources{err: errors.New("not in any local source")}
	d := New(Options{Resources: res, Charts: map[string]string{"mapped": "testdata/chart"}})
	if ch, err := d.chartOf(context.Background(), item("mapped")); err != nil || ch.Name() != "demo" || len(res.keys) != 0 {
		t.Fatalf("a key of Charts wins: %v %v %v", ch, err, res.keys)
	}
	_, err = d.chartOf(context.Background(), item("other"))
	if err == nil || !strings.Contains(err.Error(), "not in any local source") || reconcile.IsUnrecoverable(err) {
		t.Fatalf("err = %v, want the resolver's error, recoverable (retried until the progressing timeout, as Landscaper's GetHelmChart)", err)
	}
}
