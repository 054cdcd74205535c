package dataflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/template/spiff"
	"github.com/lscli/lscli/reconcile"
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

// construct handles defs; parents names the imports whose conditional
// imports defs are, outermost first (none at the top).
func (c *constructor) construct(defs lsv1alpha1.ImportDefinitionList, parents ...string) error {
	for _, def := range defs {
		ok, err := c.one(def, parents)
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
			if err := c.construct(def.ConditionalImports, append(slices.Clone(parents), def.Name)...); err != nil {
				return err
			}
		}
	}
	return nil
}

// one sets the value of def and checks it. ok is false for an optional
// import that is not set.
func (c *constructor) one(def lsv1alpha1.ImportDefinition, parents []string) (ok bool, err error) {
	switch def.Type {
	case lsv1alpha1.ImportTypeData:
		return c.data(def, parents)
	case lsv1alpha1.ImportTypeTarget:
		return c.target(def, parents, c.ld.targets[def.Name] != nil)
	case lsv1alpha1.ImportTypeTargetList:
		return c.target(def, parents, c.ld.lists[def.Name] != nil)
	case lsv1alpha1.ImportTypeTargetMap:
		return c.target(def, parents, c.ld.maps[def.Name] != nil)
	}
	return false, fail(c.inst, ReasonImportInvalid, "blueprint import %q has unknown type %q (allowed: data, target, targetList, targetMap)",
		def.Name, def.Type)
}

// data sets a data import from a mapping, a DataObject or its default and
// validates it against its schema.
func (c *constructor) data(def lsv1alpha1.ImportDefinition, parents []string) (bool, error) {
	val, ok := c.mapped[def.Name]
	if !ok {
		val, ok = c.ld.data[def.Name]
	}
	if !ok {
		if required(def) {
			return false, c.missing(def, parents)
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
		e := about(c.inst, nil, "blueprint data import %q has no schema", def.Name)
		e.Landscaper = c.importPath(def, parents) + ": no schema defined: schema is nil"
		return false, importError(ImportReasonSchema, reconcile.TerminalWithCodes(e, ReasonImportInvalid))
	}
	if err := c.schemas.validate(def.Schema.RawMessage, val); err != nil {
		e := about(c.inst, nil, "%s", c.schemas.describeSchemaError(fmt.Sprintf("import %q", def.Name), err))
		if text := landscaperSchemaText("imported datatype does not have the expected schema", err); text != "" {
			e.Landscaper = c.importPath(def, parents) + ": " + text
		}
		return false, importError(ImportReasonSchema, reconcile.TerminalWithCodes(e, ReasonImportInvalid))
	}
	c.values[def.Name] = val
	return true, nil
}

// target sets a target import (present says whether spec.imports.targets
// has it, of the right kind) and checks the type of its targets.
func (c *constructor) target(def lsv1alpha1.ImportDefinition, parents []string, present bool) (bool, error) {
	if !present {
		if required(def) {
			return false, c.missing(def, parents)
		}
		return false, nil
	}
	val := c.loaded[def.Name]
	if err := checkTargetTypes(def, val); err != nil {
		e := about(c.inst, nil, "import %q: %v", def.Name, err)
		var tt *targetTypeError
		if errors.As(err, &tt) && tt.landscaper != "" {
			e.Landscaper = c.importPath(def, parents) + ": " + tt.landscaper
		}
		return false, importError(ImportReasonSchema, reconcile.TerminalWithCodes(e, ReasonImportInvalid))
	}
	c.values[def.Name] = val
	return true, nil
}

// missing is the error of a required import that spec.imports lacks.
func (c *constructor) missing(def lsv1alpha1.ImportDefinition, parents []string) error {
	where := "spec.imports." + map[bool]string{true: "data", false: "targets"}[def.Type == lsv1alpha1.ImportTypeData]
	cond := ""
	if len(parents) > 0 {
		cond = fmt.Sprintf(" (a conditional import of %q)", parents[len(parents)-1])
	}
	hint := ""
	if def.Type == lsv1alpha1.ImportTypeData {
		hint = " and no importDataMappings entry produces it"
	}
	// Landscaper's words (imports/constructor.go), in lscli's text followed
	// by where lscli looked.
	const landscaper = "blueprint defines import %q of type %s, which is not satisfied"
	e := about(c.inst, nil, landscaper+"%s: %s has no import of that name%s", def.Name, def.Type, cond, where, hint)
	e.Landscaper = fmt.Sprintf(landscaper, def.Name, def.Type)
	return importError(ImportReasonNotFound, reconcile.TerminalWithCodes(e, ReasonImportInvalid))
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

// targetTypeError is an imported target of the wrong type.
type targetTypeError struct {
	msg string
	// landscaper is Landscaper's words for it (without the import's
	// path), "" where Landscaper's error is another (a target without a
	// type).
	landscaper string
}

func (e *targetTypeError) Error() string { return e.msg }

// checkTargetTypes checks spec.type of the imported target(s).
func checkTargetTypes(def lsv1alpha1.ImportDefinition, val any) error {
	// check checks one target; where says which one in lscli's words,
	// element in Landscaper's ("" for a single target).
	check := func(where, element string, t any) error {
		m, _ := t.(map[string]any)
		spec, _ := m["spec"].(map[string]any)
		typ, isString := spec["type"].(string)
		if typ == def.TargetType {
			return nil
		}
		e := &targetTypeError{msg: fmt.Sprintf("%starget type is %q, the blueprint wants %q", where, typ, def.TargetType)}
		if isString {
			// pkg/landscaper/installations/imports/constructor.go
			if element == "" {
				e.landscaper = fmt.Sprintf("imported target type is %s but expected %s", typ, def.TargetType)
			} else {
				e.landscaper = fmt.Sprintf("type of the element at position %s is %s but expected %s", element, typ, def.TargetType)
			}
		}
		return e
	}
	switch v := val.(type) {
	case []any:
		for i, t := range v {
			if err := check(fmt.Sprintf("element %d: ", i), fmt.Sprintf("%d of the imported targetlist", i), t); err != nil {
				return err
			}
		}
	case map[string]any:
		if def.Type == lsv1alpha1.ImportTypeTargetMap {
			return checkMapTypes(v, check)
		}
		return check("", "", v)
	}
	return nil
}

// checkMapTypes checks the elements of a target map in key order.
func checkMapTypes(m map[string]any, check func(string, string, any) error) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := check(fmt.Sprintf("key %q: ", k), k+" of the imported targetmap", m[k]); err != nil {
			return err
		}
	}
	return nil
}

// importPath is Landscaper's field path of import def: the installation's
// name, the imports def is a conditional import of, and def's name.
func (c *constructor) importPath(def lsv1alpha1.ImportDefinition, parents []string) string {
	return strings.Join(append(append([]string{c.inst.Name}, parents...), def.Name), ".")
}

// importDataMappings renders spec.importDataMappings with Spiff; the
// loaded imports are bound at the top level by import name.
func importDataMappings(ctx context.Context, inst *lsv1alpha1.Installation, vals map[string]any) (map[string]any, error) {
	if len(inst.Spec.ImportDataMappings) == 0 {
		return nil, nil
	}
	return renderMappings(ctx, inst, "importDataMappings", inst.Spec.ImportDataMappings, vals, ReasonImportInvalid)
}

// mappingPath is the start of Landscaper's message for an entry k of a
// data mapping that Spiff cannot evaluate: "unable to template import
// mapping template <installation>.<k>", or "... export mapping template
// (inst: <installation>).internalExports.<k>".
func mappingPath(inst *lsv1alpha1.Installation, field, k string) string {
	if field == "exportDataMappings" {
		return fmt.Sprintf("unable to template export mapping template (inst: %s).internalExports.%s", inst.Name, k)
	}
	return fmt.Sprintf("unable to template import mapping template %s.%s", inst.Name, k)
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
			e := about(inst, nil, "spec.%s[%q]: %s", field, k, tidy(err))
			var ev *spiff.EvalError
			if errors.As(err, &ev) {
				// Landscaper's import and export constructors: Spiff's
				// message, the template named after the key.
				e.Landscaper = mappingPath(inst, field, k) + ": " + ev.Error()
			}
			return nil, reconcile.TerminalWithCodes(e, reason)
		}
		out[k] = v
	}
	return out, nil
}
