package helm

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
)

// helm renders a release's templates once per install or upgrade, then
// applies them and waits. On a simulated cluster the action pauses while
// it waits (for a hook, or for its objects) and the next call runs it
// again from its start (see resume); rendering again there would see
// what the first attempt wrote (lookup finds the Secret the first render
// generated) and draw new random values, so a chart whose pod template
// has a checksum of an included template that generates a value (MinIO's
// checksum/secrets of secrets.yaml, which generates rootPassword unless
// lookup finds it) would change its Deployment in the middle of the
// install, which helm never does. So a resumed action renders what the
// paused one rendered: the chart's templates are replaced by templates
// that print the pending revision's documents as they are.

// sourcePrefix starts each document of a release's manifest, before its
// template's path (helm's action renderResources writes
// "---\n# Source: PATH\nCONTENT\n").
const sourcePrefix = "---\n# Source: "

// pinnedChart returns a copy of ch whose templates render the documents
// of rel, the revision an earlier call of the same action rendered: its
// manifest and hooks, each at its template's path, in their order, so
// that helm's rendering, splitting and sorting give the same documents.
// The charts' partials (templates whose names start with _) and NOTES.txt
// stay; values, schema, files and crds/ are ch's. ok is false when a path
// does not name a template of ch's tree (or a subchart is used under two
// aliases): the action then renders ch.
func pinnedChart(ch *chart.Chart, rel *release.Release) (*chart.Chart, bool) {
	docs := map[string][]string{}
	var paths []string
	add := func(p, content string) {
		if _, seen := docs[p]; !seen {
			paths = append(paths, p)
		}
		docs[p] = append(docs[p], content)
	}
	for _, part := range strings.Split(rel.Manifest, sourcePrefix)[1:] {
		nl := strings.IndexByte(part, '\n')
		if nl < 0 {
			continue
		}
		add(part[:nl], strings.TrimSuffix(part[nl+1:], "\n"))
	}
	for _, h := range rel.Hooks {
		add(h.Path, h.Manifest)
	}
	root := copyTree(ch)
	byChart := map[*chart.Chart]map[string][]string{}
	for _, p := range paths {
		c, name, ok := templateOf(root, p)
		if !ok {
			return nil, false
		}
		if byChart[c] == nil {
			byChart[c] = map[string][]string{}
		}
		byChart[c][name] = docs[p]
	}
	if !replaceTemplates(root, byChart, map[*chart.Chart]bool{}) {
		return nil, false
	}
	return root, true
}

// copyTree copies c and its dependencies, sharing everything but the
// templates and the tree.
func copyTree(c *chart.Chart) *chart.Chart {
	cp := &chart.Chart{Raw: c.Raw, Metadata: c.Metadata, Lock: c.Lock, Templates: c.Templates,
		Values: c.Values, Schema: c.Schema, Files: c.Files}
	deps := make([]*chart.Chart, 0, len(c.Dependencies()))
	for _, d := range c.Dependencies() {
		deps = append(deps, copyTree(d))
	}
	cp.SetDependencies(deps...)
	return cp
}

// templateOf finds the chart of root's tree and the template name that
// the rendered path p ("ROOT/templates/x.yaml",
// "ROOT/charts/SUB/templates/x.yaml", ...) comes from. A subchart is
// named by its name or by the alias of its dependency.
func templateOf(root *chart.Chart, p string) (*chart.Chart, string, bool) {
	rest, ok := strings.CutPrefix(p, root.Name()+"/")
	if !ok {
		return nil, "", false
	}
	c := root
	for {
		if strings.HasPrefix(rest, "templates/") {
			return c, rest, true
		}
		after, ok := strings.CutPrefix(rest, "charts/")
		if !ok {
			return nil, "", false
		}
		name, tail, ok := strings.Cut(after, "/")
		if !ok {
			return nil, "", false
		}
		sub := dependencyNamed(c, name)
		if sub == nil {
			return nil, "", false
		}
		c, rest = sub, tail
	}
}

// dependencyNamed is the dependency of c called name, or aliased so.
func dependencyNamed(c *chart.Chart, name string) *chart.Chart {
	real := name
	if c.Metadata != nil {
		for _, d := range c.Metadata.Dependencies {
			if d != nil && d.Alias == name {
				real = d.Name
			}
		}
	}
	for _, d := range c.Dependencies() {
		if d.Name() == real {
			return d
		}
	}
	return nil
}

// replaceTemplates gives each chart of c's tree its pinned templates
// (byChart) instead of its own, keeping partials and NOTES.txt. It fails
// when a subchart is used under two aliases (two paths would share one
// chart's templates).
func replaceTemplates(c *chart.Chart, byChart map[*chart.Chart]map[string][]string, aliased map[*chart.Chart]bool) bool {
	if c.Metadata != nil {
		for _, d := range c.Metadata.Dependencies {
			if d == nil || d.Alias == "" {
				continue
			}
			sub := dependencyNamed(c, d.Alias)
			if sub != nil && aliased[sub] {
				return false
			}
			aliased[sub] = true
		}
	}
	var kept []*chart.File
	for _, f := range c.Templates {
		base := path.Base(f.Name)
		if strings.HasPrefix(base, "_") || base == "NOTES.txt" {
			kept = append(kept, f)
		}
	}
	names := make([]string, 0, len(byChart[c]))
	for name := range byChart[c] {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		kept = append(kept, &chart.File{Name: name, Data: []byte(printing(byChart[c][name]))})
	}
	c.Templates = kept
	for _, d := range c.Dependencies() {
		if !replaceTemplates(d, byChart, aliased) {
			return false
		}
	}
	return true
}

// printing is a template that prints docs as they are, one document each
// (a quoted string constant, so nothing in them is a template action).
func printing(docs []string) string {
	var b strings.Builder
	for i, d := range docs {
		if i > 0 {
			b.WriteString("\n---\n")
		}
		b.WriteString("{{ ")
		b.WriteString(strconv.Quote(d))
		b.WriteString(" }}")
	}
	return b.String()
}
