package dataflow

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/reconcile"
)

// Exports are an installation's constructed exports.
type Exports struct {
	// Values maps export names to values: the blueprint's exports that the
	// exportExecutions rendered, and the results of exportDataMappings.
	Values map[string]any
	// Data are the installation's data exports (spec.exports.data), in order.
	Data []DataExport
	// Targets are the installation's target exports (spec.exports.targets),
	// in order.
	Targets []TargetExport
	// dropped are the exports the exportExecutions rendered and the
	// blueprint does not declare, which Landscaper drops.
	dropped map[string]bool
}

// DataExport is one data export: the value that spec.exports.data[name]
// writes under dataRef.
type DataExport struct {
	Name, DataRef string
	Value         any
}

// TargetExport is one target export: the Target that
// spec.exports.targets[name] writes under target.
type TargetExport struct {
	Name, Target string
	Value        lsv1alpha1.TargetTemplate
}

// ConstructExports runs the blueprint's exportExecutions and the
// installation's exportDataMappings and validates the exports against the
// blueprint. The export executions see the bindings imports, cd,
// components, blueprint, state and values = {deployitems, dataobjects,
// targets}, those three also at the top level: deployitems are the exports
// of the deploy items (of the Execution's export DataObject) by deploy item
// name, dataobjects and targets the DataObjects and Targets in the context
// "Inst.<name>" (inst's imports by import name, its subinstallations'
// exports by dataRef or target) by key.
//
// Each export execution's new state is stored as it renders, before the
// exports are checked, as Landscaper stores it. Exports the blueprint does
// not declare are dropped. A schema or target
// type violation, a template error and a spec.exports entry without a value
// are terminal errors.
func ConstructExports(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports) (*Exports, error) {
	internal, err := internalExports(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	ru, err := newRunner(c, inst, bp, imps, kindExport, statePrefixExport)
	if err != nil {
		return nil, err
	}
	ru.values["values"] = internal
	for k, v := range internal {
		ru.values[k] = v
	}
	exports := map[string]any{}
	for _, ex := range bp.Info.ExportExecutions {
		var out struct {
			Exports map[string]any `json:"exports"`
		}
		if err := ru.run(ctx, ex, &out); err != nil {
			return nil, err
		}
		exports = mergeMaps(exports, out.Exports)
	}
	dropped, err := validateExports(inst, bp, imps.tree, exports)
	if err != nil {
		return nil, err
	}
	if len(inst.Spec.ExportDataMappings) > 0 {
		vals := map[string]any{"exports": exports}
		for k, v := range exports {
			vals[k] = v
		}
		mapped, err := renderMappings(ctx, inst, "exportDataMappings", inst.Spec.ExportDataMappings, vals, ReasonExportInvalid)
		if err != nil {
			return nil, err
		}
		exports = mergeTop(exports, mapped)
	}
	exps := &Exports{Values: exports, dropped: dropped}
	return exps, exps.assign(inst)
}

// mergeTop returns a with the keys of b set (b wins).
func mergeTop(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// assign maps the values to the installation's spec.exports. An export
// without a value has Landscaper's text (its field path) in the status.
func (e *Exports) assign(inst *lsv1alpha1.Installation) error {
	dropped := e.dropped
	for _, d := range inst.Spec.Exports.Data {
		v, ok := e.Values[d.Name]
		if !ok {
			e := about(inst, nil, "data export %q has no value: neither the blueprint's exportExecutions nor "+
				"exportDataMappings produce %q", d.Name, d.Name)
			if dropped[d.Name] {
				e = about(inst, nil, "data export %q has no value: %s", d.Name, undeclared(d.Name))
			}
			e.Landscaper = fmt.Sprintf("(inst: %s).internalExports.exports.data.%s: data export is not defined", inst.Name, d.Name)
			return reconcile.TerminalWithCodes(e, ReasonExportInvalid)
		}
		e.Data = append(e.Data, DataExport{Name: d.Name, DataRef: d.DataRef, Value: v})
	}
	for _, t := range inst.Spec.Exports.Targets {
		v, ok := e.Values[t.Name]
		if !ok {
			e := about(inst, nil, "target export %q has no value: the blueprint's exportExecutions do not produce %q", t.Name, t.Name)
			if dropped[t.Name] {
				e = about(inst, nil, "target export %q has no value: %s", t.Name, undeclared(t.Name))
			}
			e.Landscaper = fmt.Sprintf("(inst: %s).internalExports.exports.targets.%s: target export is not defined", inst.Name, t.Name)
			return reconcile.TerminalWithCodes(e, ReasonExportInvalid)
		}
		tmpl, err := toGeneric[lsv1alpha1.TargetTemplate](v)
		if err != nil {
			e := about(inst, nil, "target export %q is not a target {type, config|secretRef, labels, annotations}: %v", t.Name, err)
			// ConvertTargetTemplateToTargetExtension's error, under the
			// export's field path.
			e.Landscaper = fmt.Sprintf("(inst: %s).internalExports.exports.targets.%s: unable to build target from template: %v", inst.Name, t.Name, err)
			return reconcile.TerminalWithCodes(e, ReasonExportInvalid)
		}
		e.Targets = append(e.Targets, TargetExport{Name: t.Name, Target: t.Target, Value: tmpl})
	}
	return nil
}

// undeclared explains why an export that the export executions rendered has
// no value: the blueprint does not declare it.
func undeclared(name string) string {
	return fmt.Sprintf("the blueprint's exportExecutions produce %q, but the blueprint declares no export %q, and "+
		"Landscaper drops the exports a blueprint does not declare (add %q to the blueprint's exports)", name, name, name)
}

// validateExports drops undeclared exports, returning their names, and
// checks the others against their definitions.
func validateExports(inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree, exports map[string]any) (map[string]bool, error) {
	defs := map[string]lsv1alpha1.ExportDefinition{}
	for _, d := range bp.Info.Exports {
		defs[d.Name] = d
	}
	sch := newSchemas(bp, tree)
	var dropped map[string]bool // made for the first: most blueprints declare every export
	for _, name := range sortedKeys(exports) {
		def, ok := defs[name]
		if !ok {
			delete(exports, name)
			if dropped == nil {
				dropped = map[string]bool{}
			}
			dropped[name] = true
			continue
		}
		if landscaper, err := checkExport(def, exports[name], sch); err != nil {
			e := about(inst, nil, "export %q: %v", name, err)
			if landscaper != "" {
				// pkg/landscaper/installations/exports/constructor.go
				e.Landscaper = fmt.Sprintf("(inst: %s).internalExports: %s", inst.Name, landscaper)
			}
			return nil, reconcile.TerminalWithCodes(e, ReasonExportInvalid)
		}
	}
	return dropped, nil
}

// checkExport checks one export value against its definition. landscaper
// is Landscaper's words for the error, when it has the same error.
func checkExport(def lsv1alpha1.ExportDefinition, val any, sch *schemas) (landscaper string, err error) {
	switch def.Type {
	case lsv1alpha1.ExportTypeData:
		if def.Schema == nil {
			return fmt.Sprintf("schema for data export %q must not be empty", def.Name), fmt.Errorf("the blueprint defines no schema for it")
		}
		if err := sch.validate(def.Schema.RawMessage, val); err != nil {
			text := landscaperSchemaText("exported data does not satisfy the configured schema", err)
			if !isViolation(err) {
				return text, fmt.Errorf("the schema of blueprint %s cannot be used: %w", sch.blueprintName(), err)
			}
			return text, fmt.Errorf("does not match the blueprint's schema: %w", err)
		}
	case lsv1alpha1.ExportTypeTarget:
		m, _ := val.(map[string]any)
		raw, found := m["type"]
		if !found {
			// client-go's jsonpath, which Landscaper's jsonpath.GetValue uses.
			return "exported target does not match the expected target template schema: type is not found",
				fmt.Errorf("it has no type (a target export is {type, config|secretRef, labels, annotations}); the blueprint wants %q", def.TargetType)
		}
		typ, err := typeString(raw)
		if err != nil {
			return "exported target does not match the expected target template schema: " + err.Error(),
				fmt.Errorf("its type is not a string; the blueprint wants %q", def.TargetType)
		}
		if typ != def.TargetType {
			return fmt.Sprintf("exported target type is %s but expected %s", typ, def.TargetType),
				fmt.Errorf("target type is %q, the blueprint wants %q", typ, def.TargetType)
		}
	default:
		return "", fmt.Errorf("the blueprint gives it the unknown type %q (allowed: data, target)", def.Type)
	}
	return "", nil
}

// typeString reads the type of a target export into a string as
// Landscaper's jsonpath.GetValue does (pkg/landscaper/dataobjects/jsonpath):
// through sigs.k8s.io/yaml, which turns numbers and booleans into their
// text and null into "", and fails for a list or a map.
func typeString(v any) (string, error) {
	data, err := yaml.Marshal(v)
	if err != nil {
		return "", err
	}
	var s string
	err = yaml.Unmarshal(data, &s)
	return s, err
}
