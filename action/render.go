package action

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/action/dryrun"
	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/helm"
	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/landscape"
)

// Render dry-runs the blueprints of a landscape without deployers and without
// touching the saved simulation: `lscli render`.
type Render struct {
	cfg *Configuration
	// Paths are the files and folders of the landscape.
	Paths []string
	// Namespace is the namespace of objects without one.
	Namespace string
	// ExportsFile holds the deploy item exports to assume (--exports): a YAML
	// map from "<installation path>/<deploy item name>" globs to exports.
	ExportsFile string
	// WithoutObjects says the caller does not read the dry run's objects
	// (RenderResult.Objects stays nil), which spares taking them over; see
	// dryrun.Render.
	WithoutObjects bool
}

// NewRender returns the render action over cfg.
func NewRender(cfg *Configuration) *Render { return &Render{cfg: cfg} }

// RenderResult is the dry run of a landscape.
type RenderResult struct {
	*dryrun.Result
	// Loaded is the landscape as read.
	Loaded *landscape.Landscape
	// Notes say what in the configuration the dry run did not use: a key
	// of the components map that no lookup read.
	Notes []string
}

// ExitCode is ExitInvalid when something did not render or validate, and
// ExitBug when a template engine panicked (see package crash).
func (r *RenderResult) ExitCode() int {
	return ProblemsExitCode(r.Problems)
}

// ProblemsExitCode is the exit code for the problems of a dry run: ExitOK
// for none, ExitBug when one is a recovered panic, else ExitInvalid.
func ProblemsExitCode(problems []error) int {
	code := ExitOK
	for _, p := range problems {
		if crash.As(p) != nil {
			return ExitBug
		}
		code = ExitInvalid
	}
	return code
}

// Run loads the landscape and renders every installation. Input that does
// not load is invalid (exit 2); what does not render is in the result's
// Problems.
func (a *Render) Run(ctx context.Context) (*RenderResult, error) {
	loader := &landscape.Loader{DefaultNamespace: a.Namespace, Policy: a.cfg.reads(), MaxYAMLNodes: a.cfg.Limits.YAMLNodes, Stdin: a.cfg.Stdin,
		Skip: a.cfg.Deployers.SeedFiles}
	ls, err := loader.Load(a.Paths...)
	if err != nil {
		return nil, Invalid(err)
	}
	if err := checkTemplatesOnly(ls, a.Paths); err != nil {
		return nil, err
	}
	rules, err := readExportRules(a.ExportsFile)
	if err != nil {
		return nil, err
	}
	paths := a.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	reg, err := openComponents(a.cfg, componentRoots(paths, nil))
	if err != nil {
		return nil, err
	}
	defer reg.Close()
	r := &dryrun.Render{Blueprints: a.cfg.Blueprints, Components: reg, Exports: rules, Seed: a.cfg.Seed, StartTime: a.cfg.startTime(), Limits: a.cfg.Limits,
		ConfigChecks: configChecks, WithoutObjects: a.WithoutObjects}
	// Exports a deployer reads back from what it applied, where they are
	// in the item's configuration: only for the real manifest deployer.
	if m := a.cfg.Deployers.Modes[manifest.Type]; m == "" || m == deployers.ModeReal {
		r.ExportReaders = exportReaders
	}
	r.FakeExports = fakeExports(a.cfg.Deployers)
	// Charts matter only to the real helm deployer (the default).
	if m := a.cfg.Deployers.Modes[helm.Type]; m == "" || m == deployers.ModeReal {
		r.ChartCheck = checkChart(a.cfg, reg)
	}
	res, err := r.Run(ctx, ls)
	if err != nil {
		return nil, err
	}
	out := &RenderResult{Result: res, Loaded: ls}
	out.Notes = reg.UnconsultedNotes()
	return out, nil
}

// fakeExports returns what tells the dry run the exports of an item that a
// reconcile fakes: its type's mode is fake, or it has none and lscli has no
// real deployer for it (the mock's own deployer is real). The first fake
// rule that selects the item gives them, as in a reconcile; a rule that
// fails the item, hangs it or keeps it from being picked up gives none, and
// neither does an item no rule selects.
func fakeExports(s DeployerSettings) func(item *lsv1alpha1.DeployItem) (any, string, bool) {
	real := RealDeployers(nil, nil, nil)
	return func(item *lsv1alpha1.DeployItem) (any, string, bool) {
		typ := item.Spec.Type
		mode, chosen := s.Modes[typ]
		if !chosen {
			if _, ok := real[typ]; ok {
				return nil, "", false
			}
			mode = deployers.ModeFake
		}
		if mode != deployers.ModeFake || typ == deployers.MockType {
			return nil, "", false
		}
		i := s.Rules.Index(item)
		if i < 0 {
			return nil, "", false
		}
		rule := s.Rules[i]
		if rule.NeverPickedUp || rule.Reconcile.Fail != "" || rule.Reconcile.Hang || rule.Exports == nil {
			return nil, "", false
		}
		var v any
		if err := json.Unmarshal(rule.Exports, &v); err != nil || v == nil {
			return nil, "", false
		}
		return v, fmt.Sprintf("fake.rules[%d]", i), true
	}
}

// readExportRules reads the --exports file: a map from pattern to exports.
func readExportRules(file string) ([]dryrun.ExportRule, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, Invalidf("read --exports %s: %v", file, err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, Invalidf("--exports %s: want a map from \"<installation path>/<deploy item name>\" to exports: %v", file, err)
	}
	rules := make([]dryrun.ExportRule, 0, len(m))
	for pattern, v := range m {
		if !strings.Contains(pattern, "/") {
			return nil, Invalidf("--exports %s: key %q: want \"<installation path>/<deploy item name>\", e.g. \"app/db\"", file, pattern)
		}
		rules = append(rules, dryrun.ExportRule{Pattern: pattern, Exports: v})
	}
	if err := dryrun.CheckRules(rules); err != nil {
		return nil, Invalidf("--exports %s: %v", file, err)
	}
	dryrun.SortRules(rules)
	return rules, nil
}

// CountRendered counts the installations below roots that rendered (not
// skipped) and their deploy items.
func CountRendered(roots []*dryrun.Installation) (installations, items int) {
	for _, n := range roots {
		if n.Skipped != "" {
			continue
		}
		i, d := CountRendered(n.Subinstallations)
		installations += 1 + i
		items += len(n.DeployItems) + d
	}
	return installations, items
}

// exportReaders tell the exports of deploy items from their configuration.
var exportReaders = map[lsv1alpha1.DeployItemType]dryrun.ExportReader{
	manifest.Type: {From: "its manifests", Read: manifest.DryRunExports},
}

// configChecks are the checks of the real deployers that refuse a deploy
// item for its configuration alone: what Landscaper's deployers do before
// they deploy, which a dry run can do too.
var configChecks = map[lsv1alpha1.DeployItemType]dryrun.ConfigCheck{
	helm.Type:               {Deployer: "helm", Check: helm.CheckConfig},
	manifest.Type:           {Deployer: "manifest", Check: manifest.CheckConfig},
	deployers.ContainerType: {Deployer: "container", Check: deployers.CheckContainerConfig},
}
