package installation

import (
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// Names of the field indexes the engine registers on the cluster, so that
// finding an installation's predecessors and successors costs no more than
// the number of siblings that share a data object or target with it.
const (
	importsIndex = "lscli.imports"
	exportsIndex = "lscli.exports"
)

// AddIndexes registers the field indexes the installation controller looks
// siblings up with on c. Call it once per cluster, before New.
func AddIndexes(c *fakecluster.Cluster) error {
	if err := c.AddIndex(&lsv1alpha1.Installation{}, importsIndex, func(o fakecluster.Object) []string {
		inst := o.(*lsv1alpha1.Installation)
		return scoped(inst, importRefs(inst))
	}); err != nil {
		return err
	}
	return c.AddGroupedIndex(&lsv1alpha1.Installation{}, exportsIndex, func(o fakecluster.Object) []string {
		inst := o.(*lsv1alpha1.Installation)
		return scoped(inst, exportRefs(inst))
	}, scopeOfValue)
}

// importRefs are the data objects and targets inst imports, as "data/<ref>"
// and "target/<name>" (from target, targets and targetMap).
func importRefs(inst *lsv1alpha1.Installation) []string {
	var out []string
	for _, d := range inst.Spec.Imports.Data {
		if d.DataRef != "" {
			out = append(out, "data/"+d.DataRef)
		}
	}
	for _, t := range inst.Spec.Imports.Targets {
		names := append([]string{t.Target}, t.Targets...)
		for _, n := range t.TargetMap {
			names = append(names, n)
		}
		for _, n := range names {
			if n != "" {
				out = append(out, "target/"+n)
			}
		}
	}
	return out
}

// exportRefs are the data objects and targets inst exports.
func exportRefs(inst *lsv1alpha1.Installation) []string {
	var out []string
	for _, d := range inst.Spec.Exports.Data {
		out = append(out, "data/"+d.DataRef)
	}
	for _, t := range inst.Spec.Exports.Targets {
		out = append(out, "target/"+t.Target)
	}
	return out
}

// scoped puts refs in the scope Landscaper looks siblings up in: the
// namespace and the context (the parent, "" for roots), so that a lookup
// finds only siblings and its cost does not grow with the other roots of a
// landscape, even when every root uses the same dataRef names.
func scoped(inst *lsv1alpha1.Installation, refs []string) []string {
	for i, r := range refs {
		refs[i] = scope(inst, r)
	}
	return refs
}

// scope is the index value of ref for the siblings of inst.
func scope(inst *lsv1alpha1.Installation, ref string) string {
	return inst.Namespace + "/" + dataflow.ContextOf(inst) + "/" + ref
}

// scopeOfValue is the scope of an index value made by scope: what comes
// before the ref (namespace and context, which hold no slash).
func scopeOfValue(v string) string {
	i := strings.IndexByte(v, '/')
	j := strings.IndexByte(v[i+1:], '/')
	if i < 0 || j < 0 {
		return v
	}
	return v[:i+1+j+1]
}
