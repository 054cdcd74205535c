package dataflow

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/template/funcs"
	"github.com/lscli/lscli/reconcile"
)

// Imports are an installation's resolved imports.
type Imports struct {
	// Values maps the blueprint's import names to their values, as the
	// templates see them under "imports": data as its JSON value, a target
	// as the Target object as a JSON map {apiVersion, kind, metadata, spec},
	// a targetList as a list of those, a targetMap as a map of those. Import
	// executions' bindings are included. Optional imports that are not set
	// and have no default are absent.
	Values map[string]any
	// Hash changes when any imported object changes: compare it before and
	// after a job to see whether the imports changed during the job.
	Hash string

	// defs are the blueprint's import definitions.
	defs lsv1alpha1.ImportDefinitionList
	// targets, lists and maps are the imported Target objects by import
	// name, for deploy items' target.import.
	targets map[string]*lsv1alpha1.Target
	lists   map[string][]*lsv1alpha1.Target
	maps    map[string]map[string]*lsv1alpha1.Target
	// components are the installation's component descriptors as
	// templates see them; tree the resolved component versions (nil
	// without).
	components *funcs.Components
	tree       *components.Tree
}

// Components returns the installation's component versions, nil when it
// has none.
func (i *Imports) Components() *components.Tree { return i.tree }

// ResolveImports reads the imports of inst from its context, applies
// importDataMappings (Spiff), the defaults of optional imports and the
// blueprint's JSON schemas and target types, and runs importExecutions.
// tree is the installation's component versions (InstallationBlueprint),
// nil when it has none.
//
// An import object that cannot be read is an ImportLoadError, which fails
// the job in Landscaper (ImportsSatisfied); an import the blueprint requires
// but spec.imports does not provide, a schema or target type violation and a
// template error are terminal.
func ResolveImports(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree) (*Imports, error) {
	l := &loader{r: r, inst: inst, ctx: ContextOf(inst)}
	ld, err := l.load(ctx)
	if err != nil {
		return nil, err
	}
	hash, err := ld.hash()
	if err != nil {
		return nil, err
	}
	vals, err := ld.values()
	if err != nil {
		return nil, fail(inst, ReasonImportInvalid, "%v", err)
	}
	mapped, err := importDataMappings(ctx, inst, vals)
	if err != nil {
		return nil, err
	}
	c := &constructor{inst: inst, ld: ld, loaded: vals, mapped: mapped,
		schemas: newSchemas(bp, tree), values: map[string]any{}}
	if err := c.construct(bp.Info.Imports); err != nil {
		return nil, err
	}
	// Landscaper builds the templates' values, the component descriptors
	// in the schema version the blueprint asks for, when it renders the
	// import executions (with or without any), after the imports are
	// constructed (RenderImportExecutions).
	comps, err := templateComponents(tree, bp, inst.Spec.ComponentDescriptor)
	if err != nil {
		e := about(inst, err, "blueprint annotation %s: %w", ocmSchemaVersionAnnotation, err)
		// pkg/landscaper/installations/executions/template/template.go
		// (serializeComponentDescriptor) and options.go (Values).
		e.Landscaper = "RenderImportExecutions - unable to template executions: error during serializing of the resolved components: unknown schema version"
		return nil, reconcile.TerminalWithCodes(e, ReasonTemplatingFailed)
	}
	imps := &Imports{Values: c.values, Hash: hash, defs: bp.Info.Imports,
		targets: ld.targets, lists: ld.lists, maps: ld.maps, components: comps, tree: tree}
	if err := runImportExecutions(ctx, inst, bp, imps); err != nil {
		return nil, err
	}
	return imps, nil
}
