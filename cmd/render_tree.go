package cmd

import (
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/action/dryrun"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/memo"
	"github.com/lscli/lscli/internal/yamlout"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// noRootInstallations is what render prints for a landscape without roots.
const noRootInstallations = "No installations.\n"

// renderTree draws rendered root installations, one tree per root: the
// installation's imports, its subinstallations, its deploy items (type,
// target, dependsOn, full config, assumed exports) and its exports. It is a
// pure function: no IO, no clock, no terminal width.
func renderTree(roots []*dryrun.Installation, st output.Styles) string {
	if len(roots) == 0 {
		return noRootInstallations
	}
	d := &renderDrawer{st: st}
	return output.DrawTrees(len(roots), func(i int) *output.TreeNode { return d.installation(roots[i], true) }) + "\n"
}

// renderDrawer builds the trees of render.
type renderDrawer struct {
	st output.Styles
}

// installation is the subtree of one installation.
func (d *renderDrawer) installation(n *dryrun.Installation, root bool) *output.TreeNode {
	name := n.Object.Namespace + "/" + n.Object.Name
	var details []string
	if !root {
		name = n.Path
		details = append(details, n.Object.Namespace+"/"+n.Object.Name)
	}
	if n.Blueprint != "" {
		details = append(details, "blueprint "+n.Blueprint)
	}
	label := d.st.Bold("Installation " + name)
	if len(details) > 0 {
		label += "  " + d.st.Faint(strings.Join(details, ", "))
	}
	t := &output.TreeNode{Label: label}
	if n.Skipped != "" {
		return t.Add(output.Leaf(d.st.Yellow("skipped") + ": " + n.Skipped))
	}
	if n.Imports != nil && len(n.Imports.Values) > 0 {
		t.Add(d.values("Imports", n.Imports.Values))
	}
	for _, sub := range n.Subinstallations {
		t.Add(d.installation(sub, false))
	}
	for _, di := range n.DeployItems {
		t.Add(output.Leaf(d.deployItem(di)))
	}
	if n.Exports != nil && (len(n.Exports.Data)+len(n.Exports.Targets)) > 0 {
		t.Add(d.exports(n))
	}
	prefix := "installation " + n.Object.Namespace + "/" + n.Object.Name + ": "
	if n.Err != nil {
		t.Add(output.Leaf(d.st.Red("error") + ": " + strings.TrimPrefix(n.Err.Error(), prefix)))
	}
	if n.Unchecked != nil {
		t.Add(output.Leaf(d.st.Yellow("not checked") + ": " + strings.TrimPrefix(n.Unchecked.Error(), prefix)))
	}
	return t
}

// values is a section of named values, sorted by name.
func (d *renderDrawer) values(title string, vals map[string]any) *output.TreeNode {
	t := &output.TreeNode{Label: d.st.Bold(title)}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Add(output.Leaf(keyValue(k, vals[k])))
	}
	return t
}

// deployItem is the node of one deploy item.
func (d *renderDrawer) deployItem(di dryrun.DeployItem) string {
	head := d.st.Bold("DeployItem "+di.Name) + "  " + string(di.Type)
	if di.Target != nil {
		head += " → Target " + di.Target.Namespace + "/" + di.Target.Name
	}
	lines := []string{head}
	if len(di.DependsOn) > 0 {
		lines = append(lines, "dependsOn: "+strings.Join(di.DependsOn, ", "))
	}
	if di.Timeout != nil {
		lines = append(lines, "timeout: "+di.Timeout.Duration.String())
	}
	var raw []byte
	if di.Configuration != nil {
		raw = di.Configuration.Raw
	}
	lines = append(lines, configLines(raw))
	if di.Exports != nil {
		lines = append(lines, keyValue(fmt.Sprintf("exports (%s)", di.ExportsFrom), di.Exports))
	}
	return strings.Join(lines, "\n")
}

// drawnConfigs keeps the lines drawn for each deploy item configuration: a
// blueprint rolled out many times renders the same configurations again.
var drawnConfigs = memo.Bounded[string, string]{Max: 4096, Size: memo.StringSize}

// configLines are the lines of a deploy item's configuration, raw JSON.
func configLines(raw []byte) string {
	if lines, ok := drawnConfigs.Get(string(raw)); ok {
		return lines
	}
	var config any
	if raw != nil {
		config, _ = decodeJSON(raw)
	}
	lines := keyValue("config", config)
	drawnConfigs.Put(string(raw), lines)
	return lines
}

// exports is the exports section of an installation.
func (d *renderDrawer) exports(n *dryrun.Installation) *output.TreeNode {
	t := &output.TreeNode{Label: d.st.Bold("Exports")}
	ctx := dataflow.ContextOf(n.Object)
	ns := n.Object.Namespace
	for _, e := range n.Exports.Data {
		name := dataflow.ObjectName(ctx, e.DataRef)
		obj := fmt.Sprintf("%s → DataObject %s/%s", e.Name, ns, name)
		if name != e.DataRef {
			obj += fmt.Sprintf(" (dataRef %s)", e.DataRef)
		}
		t.Add(output.Leaf(keyValue(obj, e.Value)))
	}
	for _, e := range n.Exports.Targets {
		name := dataflow.ObjectName(ctx, e.Target)
		details := string(e.Value.Type)
		if name != e.Target {
			details = fmt.Sprintf("target %s, %s", e.Target, details)
		}
		t.Add(output.Leaf(fmt.Sprintf("%s → Target %s/%s (%s)", e.Name, ns, name, details)))
	}
	return t
}

// keyValue prints "key: value": scalars, targets and lists of targets on
// one line, other values as indented YAML below the key.
func keyValue(key string, v any) string {
	if s, ok := targetSummary(v); ok {
		if strings.HasPrefix(s, "\n") {
			return key + ":" + s
		}
		return key + ": " + s
	}
	data, err := yamlout.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%s: %v", key, v)
	}
	text := strings.TrimSuffix(string(data), "\n")
	switch v.(type) {
	case map[string]any, []any:
		if len(text) > 2 {
			return key + ":\n  " + strings.ReplaceAll(text, "\n", "\n  ")
		}
	}
	if strings.Contains(text, "\n") {
		return key + ":\n  " + strings.ReplaceAll(text, "\n", "\n  ")
	}
	return key + ": " + text
}

// targetSummary shows a Target (or a list or map of them) briefly.
func targetSummary(v any) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		if v["kind"] == "Target" {
			meta, _ := v["metadata"].(map[string]any)
			spec, _ := v["spec"].(map[string]any)
			labels, _ := meta["labels"].(map[string]any)
			details := fmt.Sprint(spec["type"])
			if key, ok := labels[lsv1alpha1.DataObjectKeyLabel]; ok && key != meta["name"] {
				details = fmt.Sprintf("key %v, %s", key, details)
			}
			return fmt.Sprintf("Target %v/%v (%s)", meta["namespace"], meta["name"], details), true
		}
		return targetMapSummary(v)
	case []any:
		if len(v) == 0 {
			return "", false
		}
		parts := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := targetSummary(e)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		return "\n  - " + strings.Join(parts, "\n  - "), true
	}
	return "", false
}

// targetMapSummary shows a map of Targets, or fails for other maps.
func targetMapSummary(m map[string]any) (string, bool) {
	if len(m) == 0 {
		return "", false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(m))
	for _, k := range keys {
		e, ok := m[k].(map[string]any)
		if !ok || e["kind"] != "Target" {
			return "", false
		}
		s, _ := targetSummary(e)
		parts = append(parts, k+": "+s)
	}
	return "\n  " + strings.Join(parts, "\n  "), true
}

// decodeJSON decodes raw JSON into a generic value, as sigs.k8s.io/yaml's
// Unmarshal does (numbers as float64), by the JSON decoder; what that
// refuses goes through the YAML parser, as it did before
// (TestDecodeJSONIsYAMLUnmarshal).
func decodeJSON(raw []byte) (any, error) {
	var v any
	if fastjson.Unmarshal(raw, &v) == nil {
		return v, nil
	}
	v = nil
	err := yaml.Unmarshal(raw, &v)
	return v, err
}
