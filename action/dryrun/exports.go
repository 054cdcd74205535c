package dryrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// MockType is the deploy item type of Landscaper's mock deployer.
const MockType lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/mock"

// ExportRule says which exports to assume for the deploy items it matches.
type ExportRule struct {
	// Pattern matches "<installation path>/<deploy item name>" as path.Match
	// does: "*" matches within one path element, e.g. "app/*/db" or "*/*".
	Pattern string
	// Exports are the deploy item's exports, any JSON value.
	Exports any
}

// ExportReader tells the exports a deploy item of a type will have, from
// its configuration alone.
type ExportReader struct {
	// From says where the exports come from, e.g. "its manifests".
	From string
	// Read returns the exports item will have, and false when its
	// configuration alone does not tell (the dry run then assumes none).
	Read func(item *lsv1alpha1.DeployItem) (map[string]any, bool)
}

// SortRules orders rules most specific first: patterns without wildcards,
// then longer patterns, then alphabetically. The first match wins.
func SortRules(rules []ExportRule) {
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i].Pattern, rules[j].Pattern
		wa, wb := strings.ContainsAny(a, "*?["), strings.ContainsAny(b, "*?[")
		if wa != wb {
			return !wa
		}
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
}

// CheckRules reports rules whose pattern is malformed.
func CheckRules(rules []ExportRule) error {
	for _, r := range rules {
		if _, err := path.Match(r.Pattern, ""); err != nil {
			return fmt.Errorf("export rule %q: bad pattern: %w", r.Pattern, err)
		}
	}
	return nil
}

// itemExports returns the exports to assume for the deploy item di of the
// installation at instPath in namespace.
func (r *Render) itemExports(namespace, instPath string, di lsv1alpha1.DeployItemTemplate) (any, string, error) {
	p := instPath + "/" + di.Name
	for _, rule := range r.Exports {
		if ok, _ := path.Match(rule.Pattern, p); ok {
			return rule.Exports, "rule " + rule.Pattern, nil
		}
	}
	if r.FakeExports != nil {
		// As the execution controller creates it: the blueprint's name is
		// a label, the object's name is generated from it.
		item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: di.Name, Namespace: namespace,
			Labels: map[string]string{lsv1alpha1.ExecutionManagedNameLabel: di.Name}}}
		item.Spec.Type, item.Spec.Configuration = di.Type, di.Configuration
		if v, from, ok := r.FakeExports(item); ok {
			return v, from, nil
		}
	}
	if di.Configuration == nil {
		return nil, "", nil
	}
	if reader, ok := r.ExportReaders[di.Type]; ok {
		item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: di.Name}}
		item.Spec.Type, item.Spec.Configuration = di.Type, di.Configuration
		if v, ok := reader.Read(item); ok {
			return v, reader.From, nil
		}
		return nil, "", nil
	}
	if di.Type != MockType {
		return nil, "", nil
	}
	cfg, err := deployers.DecodeMockConfig(di.Configuration.Raw)
	if err != nil {
		return nil, "", fmt.Errorf("deploy item %q: mock provider configuration: %w", di.Name, err)
	}
	if cfg.Export == nil {
		return nil, "", nil
	}
	var v any
	if err := json.Unmarshal(*cfg.Export, &v); err != nil {
		return nil, "", fmt.Errorf("deploy item %q: mock export: %w", di.Name, err)
	}
	return v, "mock config", nil
}

// execute creates the Execution of inst with items and writes the exports
// the deploy items are assumed to have into its export DataObject, as the
// execution controller does in Completing.
func (w *walker) execute(ctx context.Context, inst *lsv1alpha1.Installation, instPath string, items lsv1alpha1.DeployItemTemplateList) ([]DeployItem, error) {
	out := make([]DeployItem, 0, len(items))
	exports := map[string]any{}
	for _, di := range items {
		v, from, err := w.r.itemExports(inst.Namespace, instPath, di)
		if err != nil {
			return nil, fmt.Errorf("installation %s/%s: %w", inst.Namespace, inst.Name, err)
		}
		if v != nil {
			exports[di.Name] = v
		}
		out = append(out, DeployItem{DeployItemTemplate: di, Exports: v, ExportsFrom: from})
	}
	if len(items) == 0 {
		return out, nil
	}
	if err := w.writeExecution(ctx, inst, items, exports); err != nil {
		return nil, fmt.Errorf("installation %s/%s: %w", inst.Namespace, inst.Name, err)
	}
	return out, nil
}

// writeExecution creates (or updates) the Execution of inst and its export
// DataObject.
func (w *walker) writeExecution(ctx context.Context, inst *lsv1alpha1.Installation, items lsv1alpha1.DeployItemTemplateList, exports map[string]any) error {
	exec := &lsv1alpha1.Execution{}
	key := types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}
	err := w.c.Get(ctx, key, exec)
	exec.Name, exec.Namespace = inst.Name, inst.Namespace
	exec.OwnerReferences = []metav1.OwnerReference{dataflow.ControllerRef(inst, "Installation")}
	exec.Spec = lsv1alpha1.ExecutionSpec{Context: inst.Spec.Context, DeployItems: items}
	switch {
	case apierrors.IsNotFound(err):
		err = w.c.Create(ctx, exec)
	case err == nil:
		err = w.c.Update(ctx, exec)
	}
	if err != nil {
		return fmt.Errorf("write execution: %w", err)
	}
	src := helper.DataObjectSourceFromExecution(exec)
	data, err := fastjson.MarshalEscaped(exports)
	if err != nil {
		return err
	}
	do := &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: helper.GenerateDataObjectName(src, ""), Namespace: exec.Namespace,
		Labels:          map[string]string{lsv1alpha1.DataObjectContextLabel: src, lsv1alpha1.DataObjectSourceLabel: src},
		OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(exec, "Execution")}}, Data: lsv1alpha1.NewAnyJSON(data)}
	if err := w.c.Create(ctx, do); err != nil {
		return fmt.Errorf("write the exports of execution %s: %w", exec.Name, err)
	}
	exec.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: do.Name, Namespace: do.Namespace}
	exec.Status.JobID = inst.Status.JobID
	return w.c.UpdateStatus(ctx, exec)
}

// withExportsHint adds to an export execution error which deploy items had
// no exports, as those are the usual cause of a "<no value>". An export
// execution that asks a cluster (getServiceAccountKubeconfig,
// getShootAdminKubeconfig) cannot be checked at all: a dry run has no
// clusters; it is a warning too.
func withExportsHint(err error, node *Installation) error {
	var te *template.Error
	if !errors.As(err, &te) {
		return err
	}
	// Spiff's errors keep only the text of the function's.
	if errors.Is(err, funcs.ErrNoCluster) || strings.Contains(err.Error(), funcs.ErrNoCluster.Error()) {
		return &hintError{err: err, hint: "the dry run leaves out the exports of this installation"}
	}
	var none []string
	for _, di := range node.DeployItems {
		if di.Exports == nil {
			none = append(none, fmt.Sprintf("%s/%s (%s)", node.Path, di.Name, di.Type))
		}
	}
	if len(none) == 0 {
		return err
	}
	return &hintError{err: err, hint: fmt.Sprintf("the dry run assumed no exports for %s; give them with --exports FILE",
		strings.Join(none, ", "))}
}

// hintError adds a hint to an error.
type hintError struct {
	err  error
	hint string
}

// Error is the wrapped error's message and the hint in parentheses.
func (e *hintError) Error() string { return e.err.Error() + " (" + e.hint + ")" }

// Unwrap returns the wrapped error.
func (e *hintError) Unwrap() error { return e.err }
