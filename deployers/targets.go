package deployers

import (
	"context"
	"time"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/simcluster"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/reconcile"
)

// TargetMode says which cluster the deploy items of a Target reach.
type TargetMode string

// The values of --targets and of the config file's targets.
const (
	// TargetSimulated is the simulated cluster kept in the lscli state.
	TargetSimulated TargetMode = "simulated"
	// TargetReal is the cluster the Target's kubeconfig points at.
	TargetReal TargetMode = "real"
)

// TargetModes choose a TargetMode per Target.
type TargetModes struct {
	// Default is the mode of Targets without an entry. Empty means
	// TargetSimulated.
	Default TargetMode
	// Targets are modes by "namespace/name", or by name for a Target in any
	// namespace.
	Targets map[string]TargetMode
}

// For returns the mode of t. A selfConfig Target is always simulated: it
// reaches Landscaper's own cluster, which lscli simulates.
func (m TargetModes) For(t *lsv1alpha1.Target) TargetMode {
	if key, _ := simcluster.Key(context.Background(), t, nil); key == simcluster.SelfKey {
		return TargetSimulated
	}
	if mode, ok := m.Targets[t.Namespace+"/"+t.Name]; ok {
		return mode
	}
	if mode, ok := m.Targets[t.Name]; ok {
		return mode
	}
	if m.Default == "" {
		return TargetSimulated
	}
	return m.Default
}

// TargetClusters implements ClusterClients: the deploy items of a Target
// reach the simulated cluster behind it unless Modes opt the Target in for
// its real cluster.
type TargetClusters struct {
	// Simulated are the simulated clusters. Required.
	Simulated deployer.ClusterClients
	// Real are the real clusters (package deployers/realcluster). Nil: no
	// Target can be real.
	Real deployer.ClusterClients
	// Modes choose per Target.
	Modes TargetModes
}

var (
	_ deployer.ClusterClients = (*TargetClusters)(nil)
	_ deployer.Forecaster     = (*TargetClusters)(nil)
	_ deployer.ChangeCounter  = (*TargetClusters)(nil)
)

// ForTarget returns the client of target's cluster, simulated or real.
func (tc *TargetClusters) ForTarget(ctx context.Context, target *lsv1alpha1.Target) (client.Client, error) {
	if target == nil || tc.Modes.For(target) != TargetReal {
		return tc.Simulated.ForTarget(ctx, target)
	}
	if tc.Real == nil {
		return nil, reconcile.TerminalErrorf("RealClusterUnavailable", "Target %s/%s is set to use its real cluster, but real clusters are not available",
			target.Namespace, target.Name)
	}
	return tc.Real.ForTarget(ctx, target)
}

// NextChange forecasts the simulated cluster of a simulated Target; a real
// cluster's changes are not known in advance.
func (tc *TargetClusters) NextChange(target *lsv1alpha1.Target) (time.Time, bool) {
	fc, ok := tc.Simulated.(deployer.Forecaster)
	if !ok || target == nil || tc.Modes.For(target) == TargetReal {
		return time.Time{}, false
	}
	return fc.NextChange(target)
}

// Changes counts the changes of the simulated clusters; a real cluster's
// are not counted.
func (tc *TargetClusters) Changes() uint64 {
	if cc, ok := tc.Simulated.(deployer.ChangeCounter); ok {
		return cc.Changes()
	}
	return 0
}

// ClusterOf identifies the simulated cluster of a simulated Target.
func (tc *TargetClusters) ClusterOf(target *lsv1alpha1.Target) (string, bool) {
	cc, ok := tc.Simulated.(deployer.ChangeCounter)
	if !ok || target == nil || tc.Modes.For(target) == TargetReal {
		return "", false
	}
	return cc.ClusterOf(target)
}

// Unpredictable is true for a Target set to use its real cluster.
func (tc *TargetClusters) Unpredictable(target *lsv1alpha1.Target) bool {
	return target != nil && tc.Modes.For(target) == TargetReal
}
