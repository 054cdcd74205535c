package action

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers/helm"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// resourceCharts finds the charts that helm deploy items name by
// chart.resourceRef, as Landscaper's helm deployer does: the component
// version by name and version in the repository context of the deploy
// item's Context, the resource by its identity, its content as a chart.
type resourceCharts struct {
	reg     *components.Registry
	cluster fakecluster.Reader
}

var _ helm.ResourceCharts = resourceCharts{}

// ResourceChart implements helm.ResourceCharts. Errors name the deploy
// item and its installation.
func (rc resourceCharts) ResourceChart(ctx context.Context, item *lsv1alpha1.DeployItem, key string) (*helm.LocalChart, error) {
	ch, err := rc.chart(ctx, item, key)
	if err != nil {
		return nil, fmt.Errorf("deploy item %s/%s%s: chart.resourceRef: %w", item.Namespace, item.Name, rc.installationOf(ctx, item), err)
	}
	return ch, nil
}

func (rc resourceCharts) chart(ctx context.Context, item *lsv1alpha1.DeployItem, key string) (*helm.LocalChart, error) {
	id, err := components.DecodeResourceKey(key)
	if err != nil {
		return nil, err
	}
	v, err := rc.reg.Lookup(components.Request{Repo: rc.contextRepo(ctx, item), Name: id.Component.Name, Version: id.Component.Version,
		Fallback: dataflow.InlineInstallations(ctx, rc.cluster, item.Namespace, rc.reg.LocalRoot())})
	if err != nil {
		return nil, err
	}
	res, err := components.ResourceByIdentity(v, id.Resource)
	if err != nil {
		return nil, err
	}
	c, err := rc.reg.Content(v, res, components.ForChart)
	if err != nil {
		return nil, err
	}
	ch, err := components.ReadChart(c)
	if err != nil {
		return nil, err
	}
	return &helm.LocalChart{Dir: ch.Dir, Archive: ch.Archive, Origin: ch.Origin}, nil
}

// NamedChart implements helm.ResourceCharts: the one chart in the landscape
// folders with name and version.
func (rc resourceCharts) NamedChart(key, name, version string) (*helm.LocalChart, error) {
	ch, found, err := rc.reg.NamedChart(key, name, version)
	if err != nil || !found {
		return nil, err
	}
	return &helm.LocalChart{Dir: ch.Dir, Archive: ch.Archive, Origin: ch.Origin}, nil
}

// contextRepo is the repository context of the deploy item's Context, nil
// when it has none.
func (rc resourceCharts) contextRepo(ctx context.Context, item *lsv1alpha1.DeployItem) *cdv2.UnstructuredTypedObject {
	name := item.Spec.Context
	if name == "" {
		name = lsv1alpha1.DefaultContextName
	}
	lsCtx := &lsv1alpha1.Context{}
	if err := rc.cluster.Get(ctx, types.NamespacedName{Namespace: item.Namespace, Name: name}, lsCtx); err != nil {
		return nil
	}
	return lsCtx.RepositoryContext
}

// installationOf names the installation a deploy item belongs to (through
// its Execution), as " (installation ns/name)", or "".
func (rc resourceCharts) installationOf(ctx context.Context, item *lsv1alpha1.DeployItem) string {
	exec := owner(item.OwnerReferences, "Execution")
	if exec == "" {
		return ""
	}
	e := &lsv1alpha1.Execution{}
	if err := rc.cluster.Get(ctx, types.NamespacedName{Namespace: item.Namespace, Name: exec}, e); err != nil {
		return ""
	}
	if inst := owner(e.OwnerReferences, "Installation"); inst != "" {
		return fmt.Sprintf(" (installation %s/%s)", item.Namespace, inst)
	}
	return ""
}

// owner returns the name of the owner of kind, "" when there is none.
func owner(refs []metav1.OwnerReference, kind string) string {
	for _, r := range refs {
		if r.Kind == kind {
			return r.Name
		}
	}
	return ""
}

// checkChart returns the dry run's check of a helm deploy item's chart: it
// is found as the helm deployer would find it (a chart.resourceRef in the
// component versions, a chart.ref or helmChartRepo mapped, a local path or
// the one local chart of its name and version; a verbatim key of the
// charts map counts).
func checkChart(cfg *Configuration, reg *components.Registry) func(context.Context, fakecluster.Reader, *lsv1alpha1.DeployItem, helmv1alpha1.Chart) error {
	return func(ctx context.Context, r fakecluster.Reader, item *lsv1alpha1.DeployItem, ch helmv1alpha1.Chart) error {
		rc := resourceCharts{reg: reg, cluster: r}
		if ch.ResourceRef == "" {
			if err := helm.FindChart(ch, cfg.Charts, rc); err != nil {
				return fmt.Errorf("deploy item %s/%s%s: chart: %w", item.Namespace, item.Name, rc.installationOf(ctx, item), err)
			}
			return nil
		}
		if _, ok := cfg.Charts[ch.ResourceRef]; ok {
			return nil
		}
		_, err := rc.ResourceChart(ctx, item, ch.ResourceRef)
		return err
	}
}
