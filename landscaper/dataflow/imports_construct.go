package dataflow

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/template/spiff"
)

// constructor combines the loaded imports, the results of the data
// mappings and the defaults into the values of the blueprint's imports.
type constructor struct {
	inst    *lsv1alpha1.Installation
	ld      *loaded
	loaded  map[string]any // ld as template values
	mapped  map[string]any
	schemas *schemas
	values  map[string]any
}

// construct handles defs; parent names the import whose conditional imports
// defs are ("" at the top).
func (c *constructor) construct(defs lsv1alpha1.ImportDefinitionList, parent string) error {
	for _, def := range defs {
		ok, err := c.one(def, parent)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		// Landscaper's constructImports reads the conditional imports of
		// data imports only: those of a target import are never read (and
		// WriteImports then misses a required one).
		if def.Type == lsv1alpha1.ImportTypeData && len(def.ConditionalImports) > 0 {
			if err := c.construct(def.ConditionalImports, def.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// one sets the value of def and checks it. ok is false for an optional
// import that is not set.
func (c *constructor) one(def lsv1alpha1.ImportDefinition, parent string) (ok bool, err error) {
	switch def.Type {
	case lsv1alpha1.ImportTypeData:
		return c.data(def, parent)
	case lsv1alpha1.ImportTypeTarget:
		return c.target(def, parent, c.ld.targets[def.Name] != nil)
	case lsv1alpha1.ImportTypeTargetList:
		return c.target(def, parent, c.ld.lists[def.Name] != nil)
	case lsv1alpha1.ImportTypeTargetMap:
		return c.target(def, parent, c.ld.maps[def.Name] != nil)
	}
	return false, fail(c.inst, ReasonImportInvalid, "blueprint import %q has unknown type %q (allowed: data, target, targetList, targetMap)",
		def.Name, def.Type)
}

// data sets a data import from a mapping, a DataObject or its default and
// validates it against its schema.
func (c *constructor) data(def lsv1alpha1.ImportDefinition, parent string) (bool, error) {
	val, ok := c.mapped[def.Name]
	if !ok {
		val, ok = c.ld.data[def.Name]
	}
	if !ok {
		if required(def) {
			return false, c.missing(def, parent)
		}
		if len(def.Default.Value.RawMessage) == 0 {
			return false, nil
		}
		var err error
		if val, err = decodeRaw(def.Default.Value.RawMessage); err != nil {
			return false, importError(ImportReasonInvalidDefault, fail(c.inst, ReasonImportInvalid, "import %q: default value: %v", def.Name, err))
		}
	}
	if def.Schema == nil {
		return false, importError(ImportReasonSchema, fail(c.inst, ReasonImportInvalid, "blueprint data import %q has no schema", def.Name))
	}
	if err := c.schemas.validate(def.Schema.RawMessage, val); err != nil {
		return false, importError(ImportReasonSchema, fail(c.inst, ReasonImportInvalid, "%s", c.schemas.describeSchemaError(fmt.Sprintf("import %q", def.Name), err)))
	}
	c.values[def.Name] = val
	return true, nil
}

// target sets a target import (present says whether spec.imports.targets
// has it, of the right kind) and checks the type of its targets.
func (c *constructor) target(def lsv1alpha1.ImportDefinition, parent string, present bool) (bool, error) {
	if !present {
		if required(def) {
			return false, c.missing(def, parent)
		}
		return false, nil
	}
	val := c.loaded[def.Name]
	if err := checkTargetTypes(def, val); err != nil {
		return false, importError(ImportReasonSchema, fail(c.inst, ReasonImportInvalid, "import %q: %v", def.Name, err))
	}
	c.values[def.Name] = val
	return true, nil
}

// missing is the error of a required import that spec.imports lacks.
func (c *constructor) missing(def lsv1alpha1.ImportDefinition, parent string) error {
	where := "spec.imports." + map[bool]string{true: "data", false: "targets"}[def.Type == lsv1alpha1.ImportTypeData]
	cond := ""
	if parent != "" {
		cond = fmt.Sprintf(" (a conditional import of %q)", parent)
	}
	hint := ""
	if def.Type == lsv1alpha1.ImportTypeData {
		hint = " and no importDataMappings entry produces it"
	}
	// Landscaper's words first (imports/constructor.go), then where lscli
	// looked.
	return importError(ImportReasonNotFound, fail(c.inst, ReasonImportInvalid, "blueprint defines import %q of type %s, which is not satisfied%s: %s has no import of that name%s",
		def.Name, def.Type, cond, where, hint))
}

// Reasons of Landscaper's import constructor (pkg/landscaper/installations
// errors), which it gives its errors as operation and reason both.
const (
	ImportReasonNotFound       = "ImportNotFound"
	ImportReasonSchema         = "SchemaValidationFailed"
	ImportReasonInvalidDefault = "InvalidDefaultValue"
)

// ImportError is an error of the construction of the imports (a required
// import that is not set, a value or target of the wrong schema or type, a
// default that does not decode) with the reason Landscaper's import
// constructor gives it. The controller wraps it in that reason as
// Landscaper does; its text is the wrapped terminal error's.
type ImportError struct {
	Reason string
	err    error
}

func (e *ImportError) Error() string { return e.err.Error() }

// Unwrap returns the terminal error.
func (e *ImportError) Unwrap() error { return e.err }

// importError returns err as an ImportError of reason.
func importError(reason string, err error) error {
	return &ImportError{Reason: reason, err: err}
}

// required reports whether an import must be set (the default).
func required(def lsv1alpha1.ImportDefinition) bool {
	return def.Required == nil || *def.Required
}

// checkTargetTypes checks spec.type of the imported target(s).
func checkTargetTypes(def lsv1alpha1.ImportDefinition, val any) error {
	check := func(where string, t any) error {
		m, _ := t.(map[string]any)
		spec, _ := m["spec"].(map[string]any)
		if typ, _ := spec["type"].(string); typ != def.TargetType {
			return fmt.Errorf("%starget type is %q, the blueprint wants %q", where, typ, def.TargetType)
		}
		return nil
	}
	switch v := val.(type) {
	case []any:
		for i, t := range v {
			if err := check(fmt.Sprintf("element %d: ", i), t); err != nil {
				return err
			}
		}
	case map[string]any:
		if def.Type == lsv1alpha1.ImportTypeTargetMap {
			return checkMapTypes(v, check)
		}
		return check("", v)
	}
	return nil
}

// checkMapTypes checks the elements of a target map in key order.
func checkMapTypes(m map[string]any, check func(string, any) error) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := check(fmt.Sprintf("key %q: ", k), m[k]); err != nil {
			return err
		}
	}
	return nil
}

// importDataMappings renders spec.importDataMappings with Spiff; the
// loaded imports are bound at the top level by import name.
func importDataMappings(ctx context.Context, inst *lsv1alpha1.Installation, vals map[string]any) (map[string]any, error) {
	if len(inst.Spec.ImportDataMappings) == 0 {
		return nil, nil
	}
	return renderMappings(ctx, inst, "importDataMappings", inst.Spec.ImportDataMappings, vals, ReasonImportInvalid)
}

// renderMappings renders each entry of a data mapping with Spiff.
func renderMappings(ctx context.Context, inst *lsv1alpha1.Installation, field string, mappings map[string]lsv1alpha1.AnyJSON, vals map[string]any, reason string) (map[string]any, error) {
	out := make(map[string]any, len(mappings))
	keys := make([]string, 0, len(mappings))
	for k := range mappings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := spiff.Map(k, json.RawMessage(mappings[k].RawMessage), vals, template.EnvironmentFrom(ctx).Limits)
		if crash.As(err) != nil {
			return nil, failTemplate(inst, reason, err, "spec.%s[%q]", field, k)
		}
		if err != nil {
			return nil, fail(inst, reason, "spec.%s[%q]: %s", field, k, tidy(err))
		}
		out[k] = v
	}
	return out, nil
}
