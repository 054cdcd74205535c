package engine

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/engine/blueprint"
	"github.com/lscli/lscli/engine/template"
)

// deployItemSpec is one deploy item as a deployExecution renders it.
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

// targetRef says which Target a rendered deploy item deploys to: an import of
// the installation (with index for target lists, key for target maps), or a
// Target name (deprecated).
type targetRef struct {
	Import string `json:"import,omitempty"`
	Index  *int   `json:"index,omitempty"`
	Key    string `json:"key,omitempty"`
	Name   string `json:"name,omitempty"`
}

// blueprintOf reads the blueprint of inst.
func blueprintOf(inst *lsv1alpha1.Installation) (*blueprint.Blueprint, error) {
	ref := inst.Spec.Blueprint
	switch {
	case ref.Inline != nil:
		bp, err := blueprint.FromInline(ref.Inline.Filesystem)
		if err != nil {
			return nil, terminalErrorf("BlueprintInvalid", "inline blueprint: %w", err)
		}
		return bp, nil
	case ref.Reference != nil:
		return nil, terminalErrorf("BlueprintNotFound", "blueprint reference %q: only inline blueprints are supported so far",
			ref.Reference.ResourceName)
	}
	return nil, terminalErrorf("BlueprintNotFound", "spec.blueprint has neither inline nor ref")
}

// executionBindings returns the values every template execution sees.
func executionBindings(inst *lsv1alpha1.Installation, imports map[string]any) map[string]any {
	var bpDef any
	if data, err := json.Marshal(inst.Spec.Blueprint); err == nil {
		_ = json.Unmarshal(data, &bpDef)
	}
	return map[string]any{
		"imports":      imports,
		"cd":           nil,
		"components":   nil,
		"blueprint":    bpDef,
		"blueprintDef": bpDef,
		"state":        map[string]any{},
	}
}

// renderDeployItems runs the deployExecutions of bp and returns the deploy
// item templates of the Execution. Any template error is terminal: a retry
// renders the same thing.
func renderDeployItems(inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imports map[string]any) (lsv1alpha1.DeployItemTemplateList, error) {
	var specs []deployItemSpec
	for _, ex := range bp.Info.DeployExecutions {
		out, err := runExecution(ex, bp.FS, executionBindings(inst, imports))
		if err != nil {
			return nil, terminalErrorf("TemplatingFailed", "deployExecution %q: %w", ex.Name, err)
		}
		var doc struct {
			DeployItems []deployItemSpec `json:"deployItems"`
		}
		if err := yaml.Unmarshal(out, &doc); err != nil {
			return nil, terminalErrorf("TemplatingFailed", "deployExecution %q: decode output: %w", ex.Name, err)
		}
		specs = append(specs, doc.DeployItems...)
	}
	return deployItemTemplates(inst, specs)
}

// runExecution renders one template execution.
func runExecution(ex lsv1alpha1.TemplateExecutor, fsys fs.FS, values map[string]any) ([]byte, error) {
	text, err := executionText(ex, fsys)
	if err != nil {
		return nil, err
	}
	switch ex.Type {
	case lsv1alpha1.GOTemplateType:
		return template.ExecuteGo(ex.Name, text, fsys, values)
	case lsv1alpha1.SpiffTemplateType:
		return nil, fmt.Errorf("Spiff templates are not supported yet")
	}
	return nil, fmt.Errorf("unknown template type %q (allowed: GoTemplate, Spiff)", ex.Type)
}

// executionText returns the template of ex, from its file or inline.
func executionText(ex lsv1alpha1.TemplateExecutor, fsys fs.FS) (string, error) {
	if ex.File != "" {
		data, err := fs.ReadFile(fsys, ex.File)
		if err != nil {
			return "", fmt.Errorf("read template file: %w", err)
		}
		return string(data), nil
	}
	var text string
	if err := json.Unmarshal(ex.Template.RawMessage, &text); err != nil {
		return "", fmt.Errorf("template must be a string: %w", err)
	}
	return text, nil
}

// deployItemTemplates checks the rendered specs and turns them into the
// Execution's deploy item templates, resolving target imports.
func deployItemTemplates(inst *lsv1alpha1.Installation, specs []deployItemSpec) (lsv1alpha1.DeployItemTemplateList, error) {
	seen := map[string]bool{}
	out := make(lsv1alpha1.DeployItemTemplateList, 0, len(specs))
	for _, s := range specs {
		switch {
		case s.Name == "":
			return nil, terminalErrorf("TemplatingFailed", "a rendered deploy item has no name")
		case seen[s.Name]:
			return nil, terminalErrorf("TemplatingFailed", "deploy item %q is rendered twice", s.Name)
		case s.Type == "":
			return nil, terminalErrorf("TemplatingFailed", "deploy item %q has no type", s.Name)
		}
		seen[s.Name] = true
		target, err := resolveTarget(inst, s)
		if err != nil {
			return nil, err
		}
		out = append(out, lsv1alpha1.DeployItemTemplate{Name: s.Name, Type: s.Type, Target: target, Labels: s.Labels,
			Configuration: s.Config, DependsOn: s.DependsOn, Timeout: s.Timeout,
			UpdateOnChangeOnly: s.UpdateOnChangeOnly, OnDelete: s.OnDelete})
	}
	return out, nil
}

// resolveTarget maps a rendered target reference to the Target object.
func resolveTarget(inst *lsv1alpha1.Installation, s deployItemSpec) (*lsv1alpha1.ObjectReference, error) {
	if s.Target == nil {
		return nil, nil
	}
	if s.Target.Import == "" {
		return &lsv1alpha1.ObjectReference{Name: s.Target.Name, Namespace: inst.Namespace}, nil
	}
	for _, imp := range inst.Spec.Imports.Targets {
		if imp.Name == s.Target.Import && imp.Target != "" {
			name := helper.GenerateDataObjectName(contextOf(inst), imp.Target)
			return &lsv1alpha1.ObjectReference{Name: name, Namespace: inst.Namespace}, nil
		}
	}
	return nil, terminalErrorf("TemplatingFailed", "deploy item %q: target import %q is not a single-target import of the installation",
		s.Name, s.Target.Import)
}

// contextOf is the data context of inst: "" for roots, "Inst.<parent>" for
// subinstallations.
func contextOf(inst *lsv1alpha1.Installation) string {
	if IsRoot(inst) {
		return ""
	}
	return helper.DataObjectSourceFromInstallationName(inst.Labels[lsv1alpha1.EncompassedByLabel])
}

// renderSubinstallations returns the subinstallation templates of bp: the
// inline ones, the ones in files of the blueprint, and those the
// subinstallationExecutions render.
func renderSubinstallations(inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imports map[string]any) ([]*lsv1alpha1.InstallationTemplate, error) {
	var out []*lsv1alpha1.InstallationTemplate
	for i, st := range bp.Info.Subinstallations {
		tmpl, err := subinstallationTemplate(st, bp.FS)
		if err != nil {
			return nil, terminalErrorf("TemplatingFailed", "subinstallations[%d]: %w", i, err)
		}
		out = append(out, tmpl)
	}
	for _, ex := range bp.Info.SubinstallationExecutions {
		rendered, err := runExecution(ex, bp.FS, executionBindings(inst, imports))
		if err != nil {
			return nil, terminalErrorf("TemplatingFailed", "subinstallationExecution %q: %w", ex.Name, err)
		}
		var doc struct {
			Subinstallations []*lsv1alpha1.InstallationTemplate `json:"subinstallations"`
		}
		if err := yaml.Unmarshal(rendered, &doc); err != nil {
			return nil, terminalErrorf("TemplatingFailed", "subinstallationExecution %q: decode output: %w", ex.Name, err)
		}
		out = append(out, doc.Subinstallations...)
	}
	seen := map[string]bool{}
	for _, t := range out {
		if t.Name == "" || seen[t.Name] {
			return nil, terminalErrorf("TemplatingFailed", "subinstallation name %q is empty or used twice", t.Name)
		}
		seen[t.Name] = true
	}
	return out, nil
}

// subinstallationTemplate reads one entry of a blueprint's subinstallations.
func subinstallationTemplate(st lsv1alpha1.SubinstallationTemplate, fsys fs.FS) (*lsv1alpha1.InstallationTemplate, error) {
	if st.File == "" {
		if st.InstallationTemplate == nil {
			return nil, fmt.Errorf("neither file nor an inline template")
		}
		return st.InstallationTemplate.DeepCopy(), nil
	}
	data, err := fs.ReadFile(fsys, strings.TrimPrefix(st.File, "/"))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", st.File, err)
	}
	tmpl := &lsv1alpha1.InstallationTemplate{}
	if err := yaml.Unmarshal(data, tmpl); err != nil {
		return nil, fmt.Errorf("decode %s: %w", st.File, err)
	}
	return tmpl, nil
}
