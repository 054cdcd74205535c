package dryrun

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/reconcile"
)

// Render renders landscapes. The zero value renders inline blueprints with
// the exports of mock deploy items.
type Render struct {
	// Blueprints resolves spec.blueprint.ref. Nil means only inline
	// blueprints (and blueprint folders of subinstallation templates) are found.
	Blueprints blueprint.Resolver
	// Components finds component versions. Nil finds only inline component
	// descriptors.
	Components *components.Registry
	// ChartCheck, when set, checks that the chart a helm deploy item names
	// (chart.resourceRef, ref or helmChartRepo) is found locally; r reads
	// the dry run's objects. A failed check is a problem of the
	// installation.
	ChartCheck func(ctx context.Context, r fakecluster.Reader, item *lsv1alpha1.DeployItem, chart helmv1alpha1.Chart) error
	// ConfigChecks, by deploy item type, decode and validate a deploy item's
	// configuration as that type's deployer does before it deploys (see
	// ConfigCheck). A failed check is a problem of the installation.
	ConfigChecks map[lsv1alpha1.DeployItemType]ConfigCheck
	// Exports are the exports to assume for deploy items, most specific
	// first (see SortRules). Empty means: the mock configuration's export,
	// else what ExportReaders tell.
	Exports []ExportRule
	// ExportReaders, by deploy item type, tell the exports a deploy item
	// will have from its configuration alone, where its deployer's exports
	// need nothing a deploy makes (see ExportReader).
	ExportReaders map[lsv1alpha1.DeployItemType]ExportReader
	// FakeExports, when set, tells the exports that the fake deployer of a
	// reconcile gives item (a fake rule's), and where they come from; false
	// when item's type is not faked or no rule gives it exports. It comes
	// after Exports, before ExportReaders.
	FakeExports func(item *lsv1alpha1.DeployItem) (exports any, from string, ok bool)
	// Seed derives generated names and job IDs.
	// Defaults to reconcile.DefaultSeed.
	Seed uint64
	// StartTime is the time of the objects' timestamps, and the time the
	// templates see. Defaults to reconcile.DefaultStartTime.
	StartTime time.Time
	// Limits bound the templates; zero fields mean the defaults.
	Limits limits.Limits
	// WithoutObjects says the caller does not read Result.Objects (validate,
	// render's tree): Result.Objects stays nil, and the objects of the last
	// namespace's roots rendered apart are not taken over from the forks
	// they were rendered on, since nothing reads them afterwards.
	WithoutObjects bool
	// Workers is how many root installations are rendered at once where
	// they are independent (see renderApart): 0 means one per core, 1
	// renders them one after the other. The result is the same.
	Workers int

	// rendersApart counts the namespaces whose roots renderApart rendered,
	// for tests.
	rendersApart int
}

// Result is a rendered landscape.
type Result struct {
	// Roots are the root installations, by namespace, in the order rendered.
	Roots []*Installation
	// Objects are all objects of the dry run: the landscape's, and those the
	// data flow wrote (subinstallations, Executions, DataObjects, Targets,
	// template state Secrets). The Installations of Roots are other copies.
	Objects []fakecluster.Object
	// Problems are all problems found, in the order found. Each names the
	// installation it is about.
	Problems []error
	// Warnings are what the dry run could not check, in the order found:
	// export executions that failed while deploy items had no assumed
	// exports (a deploy item's exports come from its deployer, which does
	// not run; --exports gives them).
	Warnings []error
	// InputWarnings are lscli's warnings about the landscape's files, each
	// once, in the order found: what Landscaper does without a word and
	// the author most likely did not mean, such as YAML documents of a
	// blueprint file that Landscaper ignores (see reconcile.Warnings).
	// They are no problems.
	InputWarnings []string
}

// Installation is one rendered installation.
type Installation struct {
	// Path is the installation's path: the root's name, then the template
	// names of subinstallations, joined by "/" (e.g. "app/db").
	Path string
	// Object is the installation as the dry run created or loaded it.
	Object *lsv1alpha1.Installation
	// Blueprint says where the blueprint came from ("inline", a folder);
	// empty when it was not found.
	Blueprint string
	// Imports are the resolved imports; nil when they did not resolve.
	Imports *dataflow.Imports
	// Subinstallations are the rendered subinstallations, in the order rendered.
	Subinstallations []*Installation
	// DeployItems are the rendered deploy items with their assumed exports.
	DeployItems []DeployItem
	// Exports are the constructed exports; nil when they were not.
	Exports *dataflow.Exports
	// Err is the problem that stopped rendering this installation, or nil.
	Err error
	// Unchecked is the export execution error the dry run cannot judge,
	// since deploy items had no assumed exports (see Result.Warnings); the
	// installation's exports are then missing.
	Unchecked error
	// Skipped says why the installation was not rendered at all, or "".
	Skipped string
}

// DeployItem is a rendered deploy item.
type DeployItem struct {
	lsv1alpha1.DeployItemTemplate
	// Exports are the exports the dry run assumed; nil for none.
	Exports any
	// ExportsFrom says where Exports come from: "mock config", the
	// pattern of the ExportRule, or an ExportReader's From; "" for none.
	ExportsFrom string
}

// Run renders ls. The error is only for failures of lscli itself; problems
// with the landscape are in Result.Problems.
func (r *Render) Run(ctx context.Context, ls *landscape.Landscape) (*Result, error) {
	seed, start := r.Seed, r.StartTime
	if seed == 0 {
		seed = reconcile.DefaultSeed
	}
	if start.IsZero() {
		start = reconcile.DefaultStartTime
	}
	cfg, err := engine.NewConfig(nil, seed, false, start)
	if err != nil {
		return nil, err
	}
	ctx = template.WithEnvironment(ctx, template.Environment{Clock: cfg.Clock.Now, Seed: seed, Limits: r.Limits})
	w := &walker{r: r, c: cfg.Cluster, ids: cfg.IDs, res: &Result{}, blueprints: &blueprint.Cache{}}
	warned := &reconcile.Warnings{}
	ctx = reconcile.WithWarnings(ctx, warned)
	if err := w.load(ctx, ls); err != nil {
		return nil, err
	}
	roots, err := w.roots(ctx)
	if err != nil {
		return nil, err
	}
	w.renderRoots(ctx, roots)
	w.res.InputWarnings = warned.All()
	if !r.WithoutObjects {
		// The dry run's cluster is dropped: its objects need no copies.
		w.res.Objects = cfg.Cluster.SharedObjects()
	}
	return w.res, nil
}

// load applies the landscape to the dry run's cluster, which starts empty:
// there is no last apply to keep a record of.
func (w *walker) load(ctx context.Context, ls *landscape.Landscape) error {
	var objs []fakecluster.Object
	for _, d := range ls.Objects {
		objs = append(objs, d.Object)
	}
	if err := landscape.EnsureDefaultContexts(ctx, w.c, ls.Namespaces()); err != nil {
		return err
	}
	if _, err := landscape.Apply(ctx, w.c, objs, nil); err != nil {
		return fmt.Errorf("load landscape: %w", err)
	}
	return nil
}
