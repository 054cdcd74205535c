package dataflow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gardener/landscaper/apis/core"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/internal/apiwords"
)

// validateTemplates checks subinstallation templates against each other and
// the parent's imports with Landscaper's own ValidateInstallationTemplates,
// as its ValidateSubinstallations does: each template, names used twice,
// dataRefs and targets exported twice or imported by the parent, imports
// that neither the parent nor a sibling provides. It returns Landscaper's
// message, its field errors as an aggregate error prints them, each with
// lscli's advice in parentheses, and Landscaper's own message, without the
// advice; both are "" when the templates are valid.
func validateTemplates(tmpls []*lsv1alpha1.InstallationTemplate, parent []lsv1alpha1.ImportDefinition) (msg, landscaper string) {
	coreTmpls := make([]*core.InstallationTemplate, len(tmpls))
	for i, t := range tmpls {
		coreTmpls[i] = &core.InstallationTemplate{}
		if err := lsv1alpha1.Convert_v1alpha1_InstallationTemplate_To_core_InstallationTemplate(t, coreTmpls[i], nil); err != nil {
			msg := fmt.Sprintf("cannot convert template %d to Landscaper's internal version: %v", i, err)
			return msg, msg
		}
	}
	coreImports := make([]core.ImportDefinition, len(parent))
	for i := range parent {
		if err := lsv1alpha1.Convert_v1alpha1_ImportDefinition_To_core_ImportDefinition(&parent[i], &coreImports[i], nil); err != nil {
			msg := fmt.Sprintf("cannot convert import %q to Landscaper's internal version: %v", parent[i].Name, err)
			return msg, msg
		}
	}
	path := field.NewPath("subinstallations")
	errs := mapOrder(apiwords.AsLandscaper(validation.ValidateInstallationTemplates(path, coreImports, coreTmpls)))
	noHint := func(*field.Error) string { return "" }
	return aggregate(errs, templateHint(importRefs(path, tmpls))), aggregate(errs, noHint)
}

// importRefs maps the field paths at which Landscaper's
// ValidateInstallationTemplates reports an unsatisfied import to lscli's
// explanation: what the import refers to and what would provide it.
func importRefs(path *field.Path, tmpls []*lsv1alpha1.InstallationTemplate) map[string]string {
	refs := map[string]string{}
	for i, t := range tmpls {
		instPath := path.Index(i)
		if t.Name != "" {
			instPath = path.Child(t.Name)
		}
		for j, imp := range t.Imports.Data {
			refs[instPath.Child("imports", "data").Index(j).Key(imp.Name).String()] = notProvided("data", imp.DataRef)
		}
		for j, imp := range t.Imports.Targets {
			impPath := instPath.Child("imports", "targets").Index(j).Key(imp.Name)
			for k, name := range imp.Targets {
				refs[impPath.Child("targets").Index(k).String()] = notProvided("target", name)
			}
			for k, name := range imp.TargetMap {
				refs[impPath.Child("targets").Key(k).String()] = notProvided("target", name)
			}
			switch {
			case imp.Target != "":
				refs[impPath.String()] = notProvided("target", imp.Target)
			case imp.TargetListReference != "":
				refs[impPath.String()] = fmt.Sprintf("target list %q is no targetList import of the parent", imp.TargetListReference)
			case imp.TargetMapReference != "":
				refs[impPath.String()] = fmt.Sprintf("target map %q is no targetMap import of the parent", imp.TargetMapReference)
			}
		}
	}
	return refs
}

// notProvided explains an unsatisfied import of what, named name.
func notProvided(what, name string) string {
	return fmt.Sprintf("%s %q is neither an import of the parent nor an export of a sibling", what, name)
}

// templateHint gives lscli's advice for an error of Landscaper's
// ValidateInstallationTemplates; refs are the imports by path (importRefs).
func templateHint(refs map[string]string) func(e *field.Error) string {
	return func(e *field.Error) string {
		switch {
		case e.Type == field.ErrorTypeForbidden && strings.Contains(e.Detail, "is already exported by"):
			return "only one subinstallation may export a dataRef or target"
		case e.Type == field.ErrorTypeForbidden && e.Detail == "export is imported by its parent":
			_, ref, _ := strings.Cut(strings.TrimSuffix(e.Field[strings.LastIndex(e.Field, "[")+1:], "]"), "/")
			return fmt.Sprintf("the parent imports %q: export it under another name", ref)
		case e.Type == field.ErrorTypeNotFound:
			if ref, ok := refs[e.Field]; ok {
				return ref
			}
			return "neither an import of the parent nor an export of a sibling provides it"
		case e.Type == field.ErrorTypeDuplicate && strings.Count(e.Field, ".") == 1:
			return "subinstallation names are unique"
		}
		return ""
	}
}

// aggregate formats errs as Kubernetes' aggregate error does (one error
// alone, several as "[a, b]", each once), each error with the advice of
// hint in parentheses, or returns "" for no errors.
func aggregate(errs field.ErrorList, hint func(*field.Error) string) string {
	var msgs []string
	seen := map[string]bool{}
	for _, e := range errs {
		msg := e.Error()
		if seen[msg] {
			continue
		}
		seen[msg] = true
		if h := hint(e); h != "" {
			msg += " (" + h + ")"
		}
		msgs = append(msgs, msg)
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// mapOrder returns errs with the errors about the entries of one target
// map, which Landscaper finds in Go's random map order, sorted by key, so
// that the same templates always give the same message.
func mapOrder(errs field.ErrorList) field.ErrorList {
	out := slices.Clone(errs)
	mapOf := func(e *field.Error) string {
		i := strings.LastIndex(e.Field, "[")
		if e.Type != field.ErrorTypeNotFound || i < 0 || !strings.HasSuffix(e.Field[:i], ".targets") {
			return ""
		}
		return e.Field[:i]
	}
	for start := 0; start < len(out); {
		end := start + 1
		if m := mapOf(out[start]); m != "" {
			for end < len(out) && mapOf(out[end]) == m {
				end++
			}
			slices.SortStableFunc(out[start:end], func(a, b *field.Error) int { return compareKeys(a.Field, b.Field) })
		}
		start = end
	}
	return out
}

// compareKeys orders paths that differ in their last index or key: indexes
// by number, keys by name.
func compareKeys(a, b string) int {
	ka := strings.TrimSuffix(a[strings.LastIndex(a, "[")+1:], "]")
	kb := strings.TrimSuffix(b[strings.LastIndex(b, "[")+1:], "]")
	ia, errA := strconv.Atoi(ka)
	ib, errB := strconv.Atoi(kb)
	if errA == nil && errB == nil {
		return ia - ib
	}
	return strings.Compare(ka, kb)
}

// templateCycle describes an import cycle among templates that
// validateTemplates found valid, or returns "" when there is none. As in
// Landscaper's CheckForCyclesAndDuplicateExports, a template that imports
// its own export is a cycle too (among installations, its siblings are the
// others only; see edges).
func templateCycle(tmpls []*lsv1alpha1.InstallationTemplate) string {
	g := newExportGraph(tmpls)
	edges := map[string][]string{}
	for _, t := range tmpls {
		edges[t.Name] = predecessorNames(t.Imports, g.data, g.targets)
	}
	if cycle := findCycle(edges); cycle != nil {
		return importCycleText(cycle)
	}
	return ""
}

// exportGraph knows which template exports which dataRef and target.
type exportGraph struct {
	tmpls   []*lsv1alpha1.InstallationTemplate
	data    map[string][]string // dataRef → exporting templates
	targets map[string][]string // target → exporting templates
}

func newExportGraph(tmpls []*lsv1alpha1.InstallationTemplate) *exportGraph {
	g := &exportGraph{tmpls: tmpls, data: map[string][]string{}, targets: map[string][]string{}}
	for _, t := range tmpls {
		for _, e := range t.Exports.Data {
			g.data[e.DataRef] = append(g.data[e.DataRef], t.Name)
		}
		for _, e := range t.Exports.Targets {
			g.targets[e.Target] = append(g.targets[e.Target], t.Name)
		}
	}
	return g
}

// duplicates reports dataRefs and targets that several templates export.
func (g *exportGraph) duplicates() []string {
	var msgs []string
	for _, ref := range sortedKeys(g.data) {
		if by := g.data[ref]; len(by) > 1 {
			msgs = append(msgs, fmt.Sprintf("data export %q is exported by %s", ref, quoted(by)))
		}
	}
	for _, ref := range sortedKeys(g.targets) {
		if by := g.targets[ref]; len(by) > 1 {
			msgs = append(msgs, fmt.Sprintf("target export %q is exported by %s", ref, quoted(by)))
		}
	}
	return msgs
}

// targetRefs returns the target names an import refers to.
func targetRefs(imp lsv1alpha1.TargetImport) []string {
	switch {
	case imp.Target != "":
		return []string{imp.Target}
	case imp.Targets != nil:
		return imp.Targets
	case imp.TargetListReference != "":
		return []string{imp.TargetListReference}
	case imp.TargetMap != nil:
		var out []string
		for _, k := range sortedKeys(imp.TargetMap) {
			out = append(out, imp.TargetMap[k])
		}
		return out
	case imp.TargetMapReference != "":
		return []string{imp.TargetMapReference}
	}
	return nil
}

// edges returns, for each template, the templates whose exports it imports.
func (g *exportGraph) edges() map[string][]string {
	out := map[string][]string{}
	for _, t := range g.tmpls {
		out[t.Name] = without(predecessorNames(t.Imports, g.data, g.targets), t.Name)
	}
	return out
}

// without returns list without s (an installation does not wait for itself).
func without(list []string, s string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// predecessorNames returns the exporters of what imports refers to (target
// list and map references only refer to the parent).
func predecessorNames(imports lsv1alpha1.InstallationImports, data, targets map[string][]string) []string {
	set := map[string]bool{}
	for _, imp := range imports.Data {
		for _, n := range data[imp.DataRef] {
			set[n] = true
		}
	}
	for _, imp := range imports.Targets {
		if imp.TargetListReference != "" || imp.TargetMapReference != "" {
			continue
		}
		for _, ref := range targetRefs(imp) {
			for _, n := range targets[ref] {
				set[n] = true
			}
		}
	}
	return sortedKeys(set)
}

// quoted joins names as "a", "b" and "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// importCycleText describes an import cycle a -> b -> ... -> a, where each
// installation imports from the next.
func importCycleText(cycle []string) string {
	parts := make([]string, 0, len(cycle)-1)
	for i := 0; i+1 < len(cycle); i++ {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%q imports from %q", cycle[i], cycle[i+1]))
		} else {
			parts = append(parts, fmt.Sprintf("%q from %q", cycle[i], cycle[i+1]))
		}
	}
	return "they import each other's exports in a cycle: " + strings.Join(parts, ", ")
}
