package cmd

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/state"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/helm"
	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
)

// realDeployers are the real deployers lscli has, by deploy item type. Each
// builds its deployer for a session; landscape is the session's API server
// (nil when only the types are asked for); charts is the helm deployer's
// chart mapping (the config file's charts map, see chartMap). Wiring a new
// real deployer is one entry here.
func realDeployers(landscape fakecluster.Reader, charts map[string]string) deployers.Registry {
	return deployers.Registry{
		deployers.MockType: deployers.MockBuilder,
		deployers.ManifestType: func(c deployers.ClusterClients) (deployers.Deployer, error) {
			return deployers.WithTraits(manifest.New(manifest.Options{Clusters: c, Targets: landscape}), deployers.KubernetesDeployer), nil
		},
		deployers.HelmType: func(c deployers.ClusterClients) (deployers.Deployer, error) {
			return deployers.WithTraits(helm.New(helm.Options{Clusters: c, Landscape: landscape, Charts: charts}), deployers.KubernetesDeployer), nil
		},
	}
}

// newFramework builds the deployer framework of the session: the simulated
// clusters (restored from snap), the Targets' clusters and a deployer per
// type as the settings choose.
func (ss *session) newFramework(cfg engine.Config, snap *state.Snapshot) (*deployers.Framework, error) {
	d := ss.settings.deployer
	ss.clusters = simcluster.New(simcluster.Options{Now: cfg.Clock.Now, Rand: cfg.Rand.Rand,
		Rules: d.ClusterRules, Version: d.KubeVersion})
	if snap != nil {
		ss.clusters.Restore(snap.Clusters)
	}
	charts, err := chartMap(ss.settings)
	if err != nil {
		return nil, err
	}
	realClusters := realcluster.New(realcluster.Options{Secrets: cfg.Cluster})
	clients := &deployers.TargetClusters{Simulated: ss.clusters, Real: realClusters, Modes: d.Targets}
	table, fallback, err := deployers.Setup{Modes: d.Modes, Real: realDeployers(cfg.Cluster, charts), Rules: d.Rules, Clients: clients}.Build()
	if err != nil {
		return nil, err
	}
	return &deployers.Framework{
		Client:    cfg.Cluster,
		Clock:     cfg.Clock,
		Deployers: table,
		Fallback:  fallback,
		Info:      lsv1alpha1.DeployerInformation{Identity: "lscli", Name: "lscli", Version: version},
		Rand:      cfg.Rand,
		Clusters:  clients,
	}, nil
}
