package action

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/state"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/helm"
	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
)

// RealDeployers are the real deployers lscli has, by deploy item type. Each
// builds its deployer for a session; landscape is the session's API server
// (nil when only the types are asked for); charts is the helm deployer's
// chart mapping (the config file's charts map, see chartMap); resources
// finds the charts of chart.resourceRef (nil: none). Wiring a new real
// deployer is one entry here.
func RealDeployers(landscape fakecluster.Reader, charts map[string]string, resources helm.ResourceCharts) deployers.Registry {
	return deployers.Registry{
		deployers.MockType: deployers.MockBuilder,
		deployers.ManifestType: func(c deployer.ClusterClients) (deployer.Deployer, error) {
			return deployer.WithTraits(manifest.New(manifest.Options{Clusters: c, Targets: landscape}), deployer.KubernetesDeployer), nil
		},
		deployers.HelmType: func(c deployer.ClusterClients) (deployer.Deployer, error) {
			return deployer.WithTraits(helm.New(helm.Options{Clusters: c, Landscape: landscape, Charts: charts, Resources: resources}), deployer.KubernetesDeployer), nil
		},
	}
}

// newFramework builds the deployer framework of the session: the simulated
// clusters (restored from snap), the Targets' clusters and a deployer per
// type as the settings choose.
func (ss *session) newFramework(cfg engine.Config, snap *state.Snapshot) (*deployers.Framework, error) {
	d := ss.cfg.Deployers
	ss.clusters = simcluster.New(simcluster.Options{Now: cfg.Clock.Now, IDs: cfg.IDs,
		Rules: d.ClusterRules, Version: d.KubeVersion, Seeds: d.ClusterSeeds, Landscape: cfg.Cluster})
	if snap != nil {
		ss.clusters.Restore(snap.Clusters)
	}
	realClusters := realcluster.New(realcluster.Options{Secrets: cfg.Cluster})
	clients := &deployers.TargetClusters{Simulated: ss.clusters, Real: realClusters, Modes: d.Targets}
	table, fallback, err := deployers.Setup{Modes: d.Modes, Real: RealDeployers(cfg.Cluster, ss.cfg.Charts, resourceCharts{reg: ss.components, cluster: cfg.Cluster}), Rules: d.Rules, Clients: clients}.Build()
	if err != nil {
		return nil, err
	}
	return &deployers.Framework{
		Client:    cfg.Cluster,
		Clock:     cfg.Clock,
		Deployers: table,
		Fallback:  fallback,
		Info:      lsv1alpha1.DeployerInformation{Identity: "lscli", Name: "lscli", Version: ss.cfg.Version},
		IDs:       &cfg.IDs,
		Clusters:  clients,
	}, nil
}
