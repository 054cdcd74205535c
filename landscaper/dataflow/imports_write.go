package dataflow

import (
	"context"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"

	"github.com/lscli/lscli/fakecluster"
)

// WriteImports writes each import of inst as a DataObject or Target (one per
// element of a targetList or targetMap) into inst's own context
// "Inst.<name>" under the import's name, labelled with context, source,
// sourceType=import, key, jobid (and index or targetmapkey), so that its
// subinstallations can import them by the parent's import name. The
// objects are owned by inst. A failed write is a *WriteError.
//
// As Landscaper's createOrUpdateImports, it goes through the blueprint's
// import definitions with the values after the import executions: an
// import their bindings set is written too, also an optional one that
// spec.imports left unset; the conditional imports of a set import are
// written before it, and one of them without a value is an error unless
// it is optional ("import NAME not defined").
func WriteImports(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, imps *Imports) error {
	return writeImports(ctx, c, inst, imps, imps.defs)
}

func writeImports(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, imps *Imports, defs lsv1alpha1.ImportDefinitionList) error {
	src := OwnContext(inst)
	for _, def := range defs {
		val, ok := imps.Values[def.Name]
		if !ok {
			if !required(def) {
				continue
			}
			return about(inst, nil, "import %s not defined", def.Name)
		}
		if len(def.ConditionalImports) > 0 {
			if err := writeImports(ctx, c, inst, imps, def.ConditionalImports); err != nil {
				return err
			}
		}
		m := meta{context: src, source: src, key: def.Name, jobID: inst.Status.JobID,
			sourceType: lsv1alpha1.ImportDataObjectSourceType}
		if err := writeImport(ctx, c, inst, def, val, m); err != nil {
			return &WriteError{Type: def.Type, Key: def.Name,
				Err: about(inst, err, "write import %q: %w", def.Name, err)}
		}
	}
	return nil
}

// writeImport writes one import.
func writeImport(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, def lsv1alpha1.ImportDefinition, val any, m meta) error {
	switch def.Type {
	case lsv1alpha1.ImportTypeData:
		return writeDataObject(ctx, c, inst, ObjectName(m.context, def.Name), val, m, false)
	case lsv1alpha1.ImportTypeTarget:
		t, err := toGeneric[*lsv1alpha1.Target](val)
		if err != nil {
			return err
		}
		return writeTarget(ctx, c, inst, ObjectName(m.context, def.Name), t, m, false)
	case lsv1alpha1.ImportTypeTargetList:
		return writeTargetList(ctx, c, inst, def.Name, val, m)
	case lsv1alpha1.ImportTypeTargetMap:
		return writeTargetMap(ctx, c, inst, def.Name, val, m)
	}
	return fmt.Errorf("unknown import type %q", def.Type)
}

// writeTargetList writes the elements of a targetList import.
func writeTargetList(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, name string, val any, m meta) error {
	list, err := toGeneric[[]*lsv1alpha1.Target](val)
	if err != nil {
		return fmt.Errorf("a targetList import must be a list of Targets: %w", err)
	}
	for i, t := range list {
		m.index = &i
		if err := writeTargetElement(ctx, c, inst, helper.GenerateDataObjectNameWithIndex(m.context, name, i), t, m); err != nil {
			return err
		}
	}
	return nil
}

// writeTargetMap writes the elements of a targetMap import.
func writeTargetMap(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, name string, val any, m meta) error {
	targets, err := toGeneric[map[string]*lsv1alpha1.Target](val)
	if err != nil {
		return fmt.Errorf("a targetMap import must be a map of Targets: %w", err)
	}
	keys := make([]string, 0, len(targets))
	for k := range targets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m.targetMapKey = &k
		objName := ObjectName(m.context, fmt.Sprintf("%s[%s]", name, k))
		if err := writeTargetElement(ctx, c, inst, objName, targets[k], m); err != nil {
			return err
		}
	}
	return nil
}
