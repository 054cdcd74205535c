package helm

import (
	"context"
	"fmt"
	"io/fs"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/readiness"
	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/safefs"
)

// Type is the deploy item type of Landscaper's helm deployer.
const Type lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/helm"

// Landscaper's timeout checkpoints of the helm deployer.
const (
	checkpointStartReconcile = "helm deployer: start reconcile"
	checkpointStartApply     = "helm deployer: start apply files"
	checkpointStartDelete    = "helm deployer: start delete"
)

// Options configure the helm deployer. Zero values mean the defaults.
type Options struct {
	// Clusters gives the client for a deploy item's Target: the simulated
	// cluster, or a real one. Required.
	Clusters deployer.ClusterClients
	// Landscape reads the Targets that readiness checks and exports name with
	// targetName (in the deploy item's namespace). Nil makes such a
	// targetName an error.
	Landscape fakecluster.Reader
	// Charts maps the charts Landscaper would download to local chart folders
	// or .tgz files (paths as in FS). Keys: a chart.ref OCI reference, with or
	// without its ":version" tag ("registry.example/charts/app:1.0.0"); a
	// chart.archive.remote.url; "<helmChartRepoUrl>/<helmChartName>:<helmChartVersion>"
	// or the same without ":<version>" for chart.helmChartRepo; a
	// chart.resourceRef. A chart.ref or archive URL that starts with /, ./,
	// ../ or file:// is a local path and needs no entry. Default: no mapping.
	Charts map[string]string
	// Resources finds the charts chart.resourceRef names (a component's
	// resource) that Charts does not map. Nil: such a resourceRef fails.
	Resources ResourceCharts
	// FS is where local chart paths are read. Nil means the host filesystem,
	// relative paths from the working directory, through Policy.
	FS fs.FS
	// Policy says where on the host chart files may be read (see package
	// safefs). Nil means below the working directory and the paths of
	// Charts, with the default file size limit.
	Policy *safefs.Policy
	// KubeVersion is the Kubernetes version that charts see as
	// .Capabilities.KubeVersion when the target's client does not report one
	// (see ServerVersioner). Empty means DefaultKubeVersion.
	KubeVersion string
}

// Deployer is Landscaper's helm deployer (type landscaper.gardener.cloud/helm).
// See the package documentation for what it does. It is safe for concurrent
// use.
type Deployer struct {
	opts Options
}

var (
	_ deployer.Deployer  = (*Deployer)(nil)
	_ deployer.Described = (*Deployer)(nil)
)

// policy returns Options.Policy or its default.
func (d *Deployer) policy() *safefs.Policy {
	if d.opts.Policy != nil {
		return d.opts.Policy
	}
	paths := []string{"."}
	for _, p := range d.opts.Charts {
		paths = append(paths, p)
	}
	return safefs.NewPolicy(0, paths...)
}

// New returns the helm deployer. opts.Clusters is required.
func New(opts Options) *Deployer {
	return &Deployer{opts: opts}
}

// Traits: Targets of type kubernetes-cluster and the progressing timeout,
// which the deployer also checks itself, at Landscaper's checkpoints.
// Progressing stays false: the deployer tells the first call of a job (phase
// Init: deploy) from the later ones (phase Progressing: wait for readiness
// and exports) by the item's phase.
func (d *Deployer) Traits() deployer.Traits { return deployer.KubernetesDeployer }

// item bundles what one call works with.
type item struct {
	req    deployer.Request
	cfg    *helmv1alpha1.ProviderConfiguration
	client client.Client
	// real is true when client reaches a real cluster, not a simulated one.
	real bool
}

// prepare decodes the item's configuration, checks the progressing timeout
// at checkpoint (none when empty) and gets its target's client.
func (d *Deployer) prepare(ctx context.Context, req deployer.Request, checkpoint string) (*item, error) {
	cfg, err := decodeConfig(req.Item)
	if err != nil {
		return nil, err
	}
	if checkpoint != "" {
		if _, err := timeout.Check(req.Item, req.Now, checkpoint); err != nil {
			return nil, err
		}
	}
	c, err := d.opts.Clusters.ForTarget(ctx, req.Target)
	if err != nil {
		return nil, fmt.Errorf("get client for the target of deploy item %s: %w", req.Item.Name, err)
	}
	// Only clusters that say they change by themselves in virtual time (the
	// simulated ones) are not real.
	f, ok := d.opts.Clusters.(deployer.Forecaster)
	real := !ok || f.Unpredictable(req.Target)
	return &item{req: req, cfg: cfg, client: c, real: real}, nil
}

// secondary resolves targetName for readiness checks and exports.
func (d *Deployer) secondary(it *item) readiness.SecondaryClient {
	if d.opts.Landscape == nil {
		return nil
	}
	return func(ctx context.Context, name string) (client.Client, error) {
		t := &lsv1alpha1.Target{}
		key := client.ObjectKey{Namespace: it.req.Item.Namespace, Name: name}
		if err := d.opts.Landscape.Get(ctx, key, t); err != nil {
			return nil, fmt.Errorf("get target %s: %w", name, err)
		}
		return d.opts.Clusters.ForTarget(ctx, t)
	}
}
