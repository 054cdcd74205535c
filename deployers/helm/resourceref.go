package helm

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// ResourceCharts finds the charts that chart.resourceRef names: the global
// identity of a resource of a component version (base64 of its YAML), as
// Landscaper's getResourceKey writes it. Landscaper downloads the resource
// from the component's registry; lscli's implementation reads it locally.
type ResourceCharts interface {
	// ResourceChart returns the chart key names for item. An error should
	// say what to do; the deployer fails the item with it.
	ResourceChart(ctx context.Context, item *lsv1alpha1.DeployItem, key string) (*LocalChart, error)
	// NamedChart returns the one chart found locally with name and
	// version, for a chart.ref or helmChartRepo that Options.Charts does
	// not map (key is the reference, for messages); nil when there is
	// none.
	NamedChart(key, name, version string) (*LocalChart, error)
}

// LocalChart is a chart found locally: a chart folder or a chart archive.
type LocalChart struct {
	// Dir is the chart folder, Chart.yaml at its root; nil for an archive.
	Dir fs.FS
	// Archive is a chart archive (tgz); used when Dir is nil.
	Archive []byte
	// Origin says where the chart is, for messages.
	Origin string
}

// chartOf loads the chart of it's configuration: a chart.resourceRef that
// Options.Charts does not map goes to Options.Resources; everything else
// to loadChart.
func (d *Deployer) chartOf(ctx context.Context, it *item) (*chart.Chart, error) {
	ref := it.cfg.Chart
	if ref.ResourceRef == "" || d.opts.Resources == nil {
		return d.loadChart(ref)
	}
	if _, mapped := d.opts.Charts[ref.ResourceRef]; mapped {
		return d.loadChart(ref)
	}
	local, err := d.opts.Resources.ResourceChart(ctx, it.req.Item, ref.ResourceRef)
	if err != nil {
		return nil, err
	}
	return loadLocal(local)
}

// loadLocal loads a chart found locally.
func loadLocal(local *LocalChart) (*chart.Chart, error) {
	var ch *chart.Chart
	var err error
	if local.Dir != nil {
		files, ferr := chartFiles(local.Dir, ".")
		if ferr == nil {
			ch, err = loader.LoadFiles(files)
		} else {
			err = ferr
		}
	} else {
		ch, err = loader.LoadArchive(bytes.NewReader(local.Archive))
	}
	if err != nil {
		return nil, fmt.Errorf("unable to load chart %s: %w", local.Origin, err)
	}
	return ch, nil
}
