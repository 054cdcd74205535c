package dataflow

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gardener/landscaper/apis/core"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateTemplates checks subinstallation templates against each other and
// the parent's imports. It returns one message per problem.
func validateTemplates(tmpls []*lsv1alpha1.InstallationTemplate, parent []lsv1alpha1.ImportDefinition) []string {
	var msgs []string
	seen := map[string]bool{}
	for i, t := range tmpls {
		if t.Name != "" && seen[t.Name] {
			msgs = append(msgs, fmt.Sprintf("name %q is used by two templates", t.Name))
		}
		seen[t.Name] = true
		msgs = append(msgs, fieldProblems(i, t)...)
	}
	if len(msgs) > 0 {
		return msgs
	}
	g := newExportGraph(tmpls)
	msgs = append(msgs, g.duplicates()...)
	msgs = append(msgs, g.importedByParent(parent)...)
	msgs = append(msgs, g.unsatisfied(parent)...)
	return msgs
}

// templateCycle describes an import cycle among templates that
// validateTemplates found valid, or returns "" when there is none.
func templateCycle(tmpls []*lsv1alpha1.InstallationTemplate) string {
	if cycle := findCycle(newExportGraph(tmpls).edges()); cycle != nil {
		return importCycleText(cycle)
	}
	return ""
}

// fieldProblems checks one template as Landscaper's webhook does.
func fieldProblems(i int, t *lsv1alpha1.InstallationTemplate) []string {
	c := &core.InstallationTemplate{}
	if err := lsv1alpha1.Convert_v1alpha1_InstallationTemplate_To_core_InstallationTemplate(t, c, nil); err != nil {
		return []string{fmt.Sprintf("template %d: %v", i, err)}
	}
	path := field.NewPath(fmt.Sprintf("template[%d]", i))
	if t.Name != "" {
		path = field.NewPath(fmt.Sprintf("template %q", t.Name))
	}
	var msgs []string
	for _, e := range validation.ValidateInstallationTemplate(path, c) {
		msgs = append(msgs, e.Error())
	}
	return msgs
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

// importedByParent reports exports that shadow an import of the parent.
func (g *exportGraph) importedByParent(parent []lsv1alpha1.ImportDefinition) []string {
	var msgs []string
	for _, d := range parent {
		by := g.targets[d.Name]
		if d.Type == lsv1alpha1.ImportTypeData {
			by = g.data[d.Name]
		}
		for _, t := range by {
			msgs = append(msgs, fmt.Sprintf("template %q exports %q, which is an import of the parent", t, d.Name))
		}
	}
	return msgs
}

// indexed matches an element reference such as "clusters[0]".
var indexed = regexp.MustCompile(`^(.+)\[[^\]]+\]$`)

// unsatisfied reports imports that neither the parent nor a sibling provides.
func (g *exportGraph) unsatisfied(parent []lsv1alpha1.ImportDefinition) []string {
	byType := map[lsv1alpha1.ImportType]map[string]bool{}
	for _, d := range parent {
		if byType[d.Type] == nil {
			byType[d.Type] = map[string]bool{}
		}
		byType[d.Type][d.Name] = true
	}
	var msgs []string
	report := func(t, what, ref string) {
		msgs = append(msgs, fmt.Sprintf("template %q imports %s %q, which neither an import of the parent nor an export of a sibling provides", t, what, ref))
	}
	for _, t := range g.tmpls {
		for _, imp := range t.Imports.Data {
			if imp.DataRef != "" && !byType[lsv1alpha1.ImportTypeData][imp.DataRef] && g.data[imp.DataRef] == nil {
				report(t.Name, "data", imp.DataRef)
			}
		}
		for _, imp := range t.Imports.Targets {
			for _, ref := range targetRefs(imp) {
				if !g.targetProvided(ref, imp, byType) {
					report(t.Name, "target", ref)
				}
			}
		}
	}
	return msgs
}

// targetProvided reports whether a target reference of a template's import
// is provided by the parent or a sibling.
func (g *exportGraph) targetProvided(ref string, imp lsv1alpha1.TargetImport, byType map[lsv1alpha1.ImportType]map[string]bool) bool {
	switch {
	case imp.TargetListReference != "":
		return byType[lsv1alpha1.ImportTypeTargetList][ref]
	case imp.TargetMapReference != "":
		return byType[lsv1alpha1.ImportTypeTargetMap][ref]
	case byType[lsv1alpha1.ImportTypeTarget][ref] || g.targets[ref] != nil:
		return true
	}
	if m := indexed.FindStringSubmatch(ref); m != nil {
		return byType[lsv1alpha1.ImportTypeTargetList][m[1]] || byType[lsv1alpha1.ImportTypeTargetMap][m[1]]
	}
	return false
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
