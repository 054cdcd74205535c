package dataflow

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

// deployItemSpec is one deploy item as a deployExecution renders it. Keys
// match case-insensitively, as in Landscaper (onDelete has no JSON tag there).
type deployItemSpec struct {
	Name               string                     `json:"name"`
	Type               lsv1alpha1.DeployItemType  `json:"type"`
	Target             *targetRef                 `json:"target,omitempty"`
	Labels             map[string]string          `json:"labels,omitempty"`
	Config             *runtime.RawExtension      `json:"config"`
	DependsOn          []string                   `json:"dependsOn,omitempty"`
	Timeout            *lsv1alpha1.Duration       `json:"timeout,omitempty"`
	UpdateOnChangeOnly bool                       `json:"updateOnChangeOnly,omitempty"`
	OnDelete           *lsv1alpha1.OnDeleteConfig `json:"onDelete,omitempty"`
}

// targetRef says which Target a deploy item deploys to: an import of the
// installation (with index for a targetList, key for a targetMap), or a
// Target name in the namespace (deprecated).
type targetRef struct {
	Import string  `json:"import,omitempty"`
	Index  *int    `json:"index,omitempty"`
	Key    *string `json:"key,omitempty"`
	Name   string  `json:"name,omitempty"`
}

// RenderDeployItems runs the blueprint's deployExecutions with the bindings
// imports, cd, components, blueprint and state, and returns the deploy item
// templates of the Execution, target.import resolved to the imported Target
// objects. Each execution's new state is stored as it renders. Template errors, unknown
// target imports, duplicate names and bad dependsOn are terminal.
func RenderDeployItems(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports) (lsv1alpha1.DeployItemTemplateList, error) {
	ru, err := newRunner(c, inst, bp, imps, kindDeploy, statePrefixDeploy)
	if err != nil {
		return nil, err
	}
	var specs []deployItemSpec
	for _, ex := range bp.Info.DeployExecutions {
		var out struct {
			DeployItems []deployItemSpec `json:"deployItems"`
		}
		if err := ru.run(ctx, ex, &out); err != nil {
			return nil, err
		}
		specs = append(specs, out.DeployItems...)
	}
	list := make(lsv1alpha1.DeployItemTemplateList, 0, len(specs))
	for _, s := range specs {
		target, err := resolveTarget(inst, imps, s)
		if err != nil {
			return nil, err
		}
		list = append(list, lsv1alpha1.DeployItemTemplate{Name: s.Name, Type: s.Type, Target: target, Labels: s.Labels,
			Configuration: s.Config, DependsOn: s.DependsOn, Timeout: s.Timeout,
			UpdateOnChangeOnly: s.UpdateOnChangeOnly, OnDelete: s.OnDelete})
	}
	if msg, landscaper := validateDeployItems(list); msg != "" {
		return nil, failDeployItem(inst, &DeployItemError{Problem: msg, Landscaper: landscaper})
	}
	return list, nil
}

// resolveTarget maps a rendered target reference to the Target object, in
// Landscaper's order: index (a targetList import), key (a targetMap
// import), import, else the name.
func resolveTarget(inst *lsv1alpha1.Installation, imps *Imports, s deployItemSpec) (*lsv1alpha1.ObjectReference, error) {
	ref := s.Target
	if ref == nil {
		return nil, nil
	}
	var t *lsv1alpha1.Target
	var problem, landscaper string
	switch {
	case ref.Index != nil:
		t, problem, landscaper = listTarget(imps, ref)
	case ref.Key != nil:
		t, problem, landscaper = mapTarget(imps, ref)
	case ref.Import != "":
		if t = imps.targets[ref.Import]; t == nil {
			problem = fmt.Sprintf("target import %q is not a target import of the installation%s", ref.Import, knownImports(imps))
			landscaper = fmt.Sprintf("target import %q not found", ref.Import)
		}
	case ref.Name == "":
		problem, landscaper = "target names neither import nor name", "empty target reference"
	default:
		return &lsv1alpha1.ObjectReference{Name: ref.Name, Namespace: inst.Namespace}, nil
	}
	if problem != "" {
		return nil, failDeployItem(inst, &DeployItemError{Item: s.Name, Problem: problem, Landscaper: landscaper})
	}
	return &lsv1alpha1.ObjectReference{Name: t.Name, Namespace: t.Namespace}, nil
}

// failDeployItem is the terminal error of a rendered deploy item that
// Landscaper refuses: lscli's text, and Landscaper's in the status.
func failDeployItem(inst *lsv1alpha1.Installation, de *DeployItemError) error {
	e := about(inst, de, "%w", de)
	e.Landscaper = de.LandscaperText()
	return reconcile.TerminalWithCodes(e, ReasonTemplatingFailed)
}

// listTarget finds element index of a targetList import; the problem in
// lscli's words and in Landscaper's.
func listTarget(imps *Imports, ref *targetRef) (*lsv1alpha1.Target, string, string) {
	list, ok := imps.lists[ref.Import]
	if !ok {
		return nil, fmt.Sprintf("targetList import %q is not a targetList import of the installation%s", ref.Import, knownImports(imps)),
			fmt.Sprintf("targetlist import %q not found", ref.Import)
	}
	if *ref.Index < 0 || *ref.Index >= len(list) {
		return nil, fmt.Sprintf("index %d is out of range: targetList import %q has %d targets", *ref.Index, ref.Import, len(list)),
			fmt.Sprintf("index %d out of bounds", *ref.Index)
	}
	return list[*ref.Index], "", ""
}

// mapTarget finds key of a targetMap import; the problem in lscli's words
// and in Landscaper's.
func mapTarget(imps *Imports, ref *targetRef) (*lsv1alpha1.Target, string, string) {
	m, ok := imps.maps[ref.Import]
	if !ok {
		return nil, fmt.Sprintf("targetMap import %q is not a targetMap import of the installation%s", ref.Import, knownImports(imps)),
			fmt.Sprintf("targetmap import %q not found", ref.Import)
	}
	t, ok := m[*ref.Key]
	if !ok {
		return nil, fmt.Sprintf("key %q is not in targetMap import %q", *ref.Key, ref.Import),
			fmt.Sprintf("key %q not found in targetmap import %q", *ref.Key, ref.Import)
	}
	return t, "", ""
}

// knownImports lists the target imports, for messages.
func knownImports(imps *Imports) string {
	var names []string
	for k := range imps.targets {
		names = append(names, k+" (target)")
	}
	for k := range imps.lists {
		names = append(names, k+" (targetList)")
	}
	for k := range imps.maps {
		names = append(names, k+" (targetMap)")
	}
	if len(names) == 0 {
		return " (it has none)"
	}
	return " (known: " + strings.Join(sorted(names), ", ") + ")"
}
