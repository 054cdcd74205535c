package dataflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/gardener/landscaper/apis/core"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

// RenderSubinstallations returns the subinstallation templates of inst: those
// its subinstallationExecutions render (with the bindings imports, cd,
// components, blueprint and state; each one's new state is stored as it
// renders), then the
// blueprint's subinstallations, inline or from a file of the blueprint.
//
// As in Landscaper, a template's data imports of optional parent imports
// that are not set are dropped. The templates are then checked: names set,
// valid and unique; no dataRef or target exported twice or exported although
// the parent imports it; every import satisfied by the parent's imports or a
// sibling's exports (a *TemplatesInvalidError otherwise); no import cycle
// (a *CycleError, which comes with the templates). Every failure is a
// terminal error naming the templates involved.
func RenderSubinstallations(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports) ([]*lsv1alpha1.InstallationTemplate, error) {
	tmpls, err := renderSubinstallationExecutions(ctx, c, inst, bp, imps)
	if err != nil {
		// Landscaper's subinstallation step (getInstallationTemplates)
		// says so before every error of the executions (sic).
		return nil, withStatusPrefix(err, "unable to template subinstllations: ")
	}
	fromBlueprint, err := blueprintSubinstallations(inst, bp)
	if err != nil {
		return nil, err
	}
	tmpls = append(tmpls, fromBlueprint...)
	dropUnsetOptionalImports(tmpls, bp.Info.Imports, imps)
	if msg, landscaper := validateTemplates(tmpls, parentImports(bp.Info.Imports, imps)); msg != "" {
		// Landscaper's message is the aggregate of the field errors alone
		// (ValidateSubinstallations); render and validate explain them.
		ie := about(inst, nil, "%s", msg)
		ie.Landscaper = landscaper
		return nil, &TemplatesInvalidError{err: reconcile.TerminalWithCodes(ie, ReasonSubinstallations)}
	}
	if cycle := templateCycle(tmpls); cycle != "" {
		return tmpls, &CycleError{err: fail(inst, ReasonSubinstallations, "subinstallations: %s", cycle)}
	}
	return tmpls, nil
}

// renderSubinstallationExecutions returns the subinstallation templates
// the subinstallationExecutions of bp render, in their order.
func renderSubinstallationExecutions(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports) ([]*lsv1alpha1.InstallationTemplate, error) {
	if len(bp.Info.SubinstallationExecutions) == 0 {
		return nil, nil
	}
	ru, err := newRunner(c, inst, bp, imps, kindSubinst, statePrefixDeploy)
	if err != nil {
		return nil, err
	}
	var tmpls []*lsv1alpha1.InstallationTemplate
	for _, ex := range bp.Info.SubinstallationExecutions {
		output, err := ru.render(ctx, ex)
		if err != nil {
			return nil, err
		}
		var out struct {
			Subinstallations []json.RawMessage `json:"subinstallations"`
		}
		if err := ru.decode(ex, output, &out); err != nil {
			return nil, err
		}
		decoded, err := decodeTemplates(out.Subinstallations)
		if err != nil {
			return nil, ru.failOutput(ex, output, err)
		}
		tmpls = append(tmpls, decoded...)
	}
	return tmpls, nil
}

// decodeTemplates decodes the entries of a subinstallationExecution's
// "subinstallations" as Landscaper's SubinstallationExecutorOutput does,
// each with its API decoder through the internal version: field names as
// written, another kind (such as Installation) an error.
func decodeTemplates(raws []json.RawMessage) ([]*lsv1alpha1.InstallationTemplate, error) {
	out := make([]*lsv1alpha1.InstallationTemplate, 0, len(raws))
	for i, raw := range raws {
		t := &lsv1alpha1.InstallationTemplate{}
		if err := blueprint.DecodeFile(raw, t); err != nil {
			return nil, fmt.Errorf("unable to decode installation template %d: %w", i, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// CycleError is RenderSubinstallations' error for templates that are valid
// but import each other's exports in a cycle; the templates come with it.
// Landscaper's blueprint renderer refuses them, as lscli's render and
// validate do, but its installation controller ignores the cycle: it
// creates and updates no subinstallation and goes on
// (createOrUpdateSubinstallations). It wraps the terminal error.
type CycleError struct{ err error }

func (e *CycleError) Error() string { return e.err.Error() }

// Unwrap returns the terminal error.
func (e *CycleError) Unwrap() error { return e.err }

// TemplatesInvalidError is RenderSubinstallations' error for templates that
// rendered but do not pass the checks Landscaper's ValidateSubinstallations
// makes (names, duplicate exports, exports the parent imports, unsatisfied
// imports). Landscaper's controller reports it under its own operation and
// reason, apart from the errors of reading and rendering the templates. It
// wraps the terminal error.
type TemplatesInvalidError struct{ err error }

func (e *TemplatesInvalidError) Error() string { return e.err.Error() }

// Unwrap returns the terminal error.
func (e *TemplatesInvalidError) Unwrap() error { return e.err }

// blueprintSubinstallations reads the blueprint's subinstallations. lscli's
// error names the first entry that cannot be read or whose file template
// fails the checks of one template (checkTemplate); Landscaper's
// (GetSubinstallations in pkg/utils/blueprints/blueprint.go, which
// getInstallationTemplates wraps) lists the field errors of all entries.
func blueprintSubinstallations(inst *lsv1alpha1.Installation, bp *blueprint.Blueprint) ([]*lsv1alpha1.InstallationTemplate, error) {
	const prefix = "unable to get default subinstallation templates: "
	var (
		out   = make([]*lsv1alpha1.InstallationTemplate, 0, len(bp.Info.Subinstallations))
		first *InstallationError // lscli's error
		// lsErrs are Landscaper's field errors; known is false when lscli
		// cannot say Landscaper's error for an entry.
		lsErrs field.ErrorList
		known  = true
		path   = field.NewPath("subinstallations")
	)
	for i, st := range bp.Info.Subinstallations {
		// An inline template wins over a file, as in Landscaper's
		// GetSubinstallations.
		switch {
		case st.InstallationTemplate != nil:
			out = append(out, st.InstallationTemplate.DeepCopy())
		case st.File != "":
			t, lsErr, err := readTemplateFile(bp.FS, st.File, path.Index(i))
			if err != nil {
				if first == nil {
					first = about(inst, nil, "blueprint subinstallations[%d]: file %s: %v", i, st.File, err)
				}
				if lsErr == nil {
					known = false
				} else {
					lsErrs = append(lsErrs, lsErr)
				}
				continue
			}
			if errs := checkTemplate(path.Index(i), t); len(errs) > 0 {
				if first == nil {
					first = about(inst, nil, "blueprint subinstallations[%d]: file %s: %v", i, st.File, errs.ToAggregate())
				}
				lsErrs = append(lsErrs, errs...)
				continue
			}
			out = append(out, t)
		default:
			// Landscaper returns at once, without the errors before.
			if first == nil {
				first = about(inst, nil, "blueprint subinstallations[%d] is neither a file nor an inline template", i)
			}
			first.Landscaper = prefix + fmt.Sprintf("neither a inline installation template nor a file is defined in index %d", i)
			return nil, reconcile.TerminalWithCodes(first, ReasonBlueprintInvalid)
		}
	}
	if first == nil {
		return out, nil
	}
	if known {
		first.Landscaper = prefix + lsErrs.ToAggregate().Error()
	}
	return nil, reconcile.TerminalWithCodes(first, ReasonBlueprintInvalid)
}

// readTemplateFile reads an InstallationTemplate from a blueprint file.
// lsErr is Landscaper's field error for a file that cannot be read, at
// path (the entry), or nil when lscli cannot say it.
func readTemplateFile(fsys fs.FS, name string, path *field.Path) (t *lsv1alpha1.InstallationTemplate, lsErr *field.Error, err error) {
	var data []byte
	err = fs.ErrNotExist
	if fsys != nil {
		data, err = fs.ReadFile(fsys, blueprint.FilePath(name))
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			lsErr = field.NotFound(path.Child("file"), name)
		}
		return nil, lsErr, fmt.Errorf("no such file in the blueprint")
	}
	t = &lsv1alpha1.InstallationTemplate{}
	if err := blueprint.DecodeFile(data, t); err != nil {
		if lsDecodeErr := blueprint.TemplateFileError(data); lsDecodeErr != nil {
			lsErr = field.Invalid(path.Child("file"), name, "unable to decode installation template: "+lsDecodeErr.Error())
		}
		return nil, lsErr, fmt.Errorf("not an InstallationTemplate: %w", err)
	}
	return t, nil, nil
}

// checkTemplate is Landscaper's check of a template read from a file
// (validation.ValidateInstallationTemplate) at path: GetSubinstallations
// fails on it as on a file that cannot be read, before the templates are
// validated together (see validateTemplates).
func checkTemplate(path *field.Path, t *lsv1alpha1.InstallationTemplate) field.ErrorList {
	core := &core.InstallationTemplate{}
	if err := lsv1alpha1.Convert_v1alpha1_InstallationTemplate_To_core_InstallationTemplate(t, core, nil); err != nil {
		return field.ErrorList{field.InternalError(path, err)}
	}
	return validation.ValidateInstallationTemplate(path, core)
}

// dropUnsetOptionalImports removes the data imports of templates that refer
// to optional or conditional parent imports which are not set.
func dropUnsetOptionalImports(tmpls []*lsv1alpha1.InstallationTemplate, defs lsv1alpha1.ImportDefinitionList, imps *Imports) {
	for _, t := range tmpls {
		kept := t.Imports.Data[:0:0]
		for _, imp := range t.Imports.Data {
			if _, set := imps.Values[imp.DataRef]; set || !isOptionalImport(imp.DataRef, defs, false) {
				kept = append(kept, imp)
			}
		}
		t.Imports.Data = kept
	}
}

// isOptionalImport reports whether name is an optional or a conditional
// import among defs.
func isOptionalImport(name string, defs lsv1alpha1.ImportDefinitionList, conditional bool) bool {
	for _, d := range defs {
		if d.Name == name {
			return conditional || !required(d)
		}
		if isOptionalImport(name, d.ConditionalImports, true) {
			return true
		}
	}
	return false
}

// parentImports returns the parent's imports that subinstallations may
// import: all top-level ones, and the conditional imports of set imports.
func parentImports(defs lsv1alpha1.ImportDefinitionList, imps *Imports) []lsv1alpha1.ImportDefinition {
	var out []lsv1alpha1.ImportDefinition
	for _, d := range defs {
		out = append(out, d)
		if _, set := imps.Values[d.Name]; set {
			out = append(out, parentImports(d.ConditionalImports, imps)...)
		}
	}
	return out
}
