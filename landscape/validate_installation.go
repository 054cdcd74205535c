package landscape

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/robfig/cron/v3"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// validateInstallation checks an Installation as Landscaper's webhook does
// (apis/core/validation.ValidateInstallation), and that an inline blueprint
// has a blueprint.yaml.
func validateInstallation(obj fakecluster.Object) []string {
	spec := obj.(*lsv1alpha1.Installation).Spec
	msgs := validateBlueprint("spec.blueprint", spec.Blueprint)
	if cd := spec.ComponentDescriptor; cd != nil {
		msgs = append(msgs, exactlyOne("spec.componentDescriptor",
			option{"ref", cd.Reference != nil}, option{"inline", cd.Inline != nil})...)
	}
	msgs = append(msgs, validateImports(spec.Imports)...)
	msgs = append(msgs, validateExports(spec.Exports)...)
	msgs = append(msgs, validateAutomaticReconcile(spec.AutomaticReconcile)...)
	return msgs
}

// validateAutomaticReconcile checks that the cron specs of
// spec.automaticReconcile parse, as Landscaper's webhook does.
func validateAutomaticReconcile(ar *lsv1alpha1.AutomaticReconcile) []string {
	if ar == nil {
		return nil
	}
	var msgs []string
	check := func(path, spec string) {
		if spec == "" {
			return
		}
		if _, err := cron.ParseStandard(spec); err != nil {
			msgs = append(msgs, fmt.Sprintf("%s: %q: field must be a valid cron spec (%v)", path, spec, err))
		}
	}
	if ar.SucceededReconcile != nil {
		check("spec.automaticReconcile.succeededReconcile.cronSpec", ar.SucceededReconcile.CronSpec)
	}
	if ar.FailedReconcile != nil {
		check("spec.automaticReconcile.failedReconcile.cronSpec", ar.FailedReconcile.CronSpec)
	}
	return msgs
}

// validateBlueprint checks spec.blueprint.
func validateBlueprint(path string, bp lsv1alpha1.BlueprintDefinition) []string {
	msgs := exactlyOne(path, option{"ref", bp.Reference != nil}, option{"inline", bp.Inline != nil})
	if bp.Reference != nil && bp.Reference.ResourceName == "" {
		msgs = append(msgs, path+".ref.resourceName is missing")
	}
	if bp.Inline != nil {
		msgs = append(msgs, validateInlineFilesystem(path+".inline.filesystem", bp.Inline.Filesystem.RawMessage)...)
	}
	return msgs
}

// validateInlineFilesystem checks that an inline blueprint, a YAML file
// system, has the file blueprint.yaml at its root. In a YAML file system a
// mapping is a folder and a string is a file's content; a mapping with the
// key "$type" is a file or folder as that key says.
func validateInlineFilesystem(path string, raw json.RawMessage) []string {
	const want = "want a mapping of file names to contents, with blueprint.yaml at its root"
	if len(raw) == 0 || string(raw) == "null" {
		return []string{fmt.Sprintf("%s is missing: %s", path, want)}
	}
	var root map[string]json.RawMessage
	if raw[0] != '{' || fastjson.Unmarshal(raw, &root) != nil {
		return []string{fmt.Sprintf("%s: got %s, %s", path, jsonKind(raw), want)}
	}
	bp, ok := root[lsv1alpha1.BlueprintFileName]
	if !ok {
		return []string{fmt.Sprintf("%s has no blueprint.yaml at its root (found: %s)", path, entryNames(root))}
	}
	var typed struct {
		Type *string `json:"$type"`
	}
	switch {
	case bp[0] == '"':
		return nil
	case bp[0] == '{' && fastjson.Unmarshal(bp, &typed) == nil && typed.Type != nil:
		return nil
	case bp[0] == '{':
		return []string{fmt.Sprintf("%s: blueprint.yaml is a folder, want a file: its content as a string (blueprint.yaml: |)", path)}
	}
	return []string{fmt.Sprintf("%s: blueprint.yaml is %s, want its content as a string (blueprint.yaml: |)", path, jsonKind(bp))}
}

// entryNames lists the entries of a YAML file system folder, sorted, with
// "/" after folders.
func entryNames(dir map[string]json.RawMessage) string {
	if len(dir) == 0 {
		return "nothing"
	}
	var names []string
	for name, v := range dir {
		if len(v) > 0 && v[0] == '{' {
			name += "/"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// validateImports checks spec.imports. Import names are unique across data
// and target imports.
func validateImports(imports lsv1alpha1.InstallationImports) []string {
	var msgs []string
	seen := map[string]string{}
	for i, imp := range imports.Data {
		path := index("spec.imports.data", i)
		msgs = append(msgs, uniqueName(seen, path, "import", imp.Name)...)
		msgs = append(msgs, exactlyOne(item("spec.imports.data", i, imp.Name),
			option{"dataRef", imp.DataRef != ""}, option{"secretRef", imp.SecretRef != nil},
			option{"configMapRef", imp.ConfigMapRef != nil})...)
		if imp.SecretRef != nil && imp.SecretRef.Name == "" {
			msgs = append(msgs, path+".secretRef.name is missing")
		}
		if imp.ConfigMapRef != nil && imp.ConfigMapRef.Name == "" {
			msgs = append(msgs, path+".configMapRef.name is missing")
		}
	}
	for i, imp := range imports.Targets {
		path := index("spec.imports.targets", i)
		msgs = append(msgs, uniqueName(seen, path, "import", imp.Name)...)
		msgs = append(msgs, validateTargetImport(item("spec.imports.targets", i, imp.Name), path, imp)...)
	}
	return msgs
}

// targetMapKey is what Landscaper allows as key of a targetMap.
var targetMapKey = regexp.MustCompile("^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$")

// validateTargetImport checks one target import. name is the import's path
// with its name, path without.
func validateTargetImport(name, path string, imp lsv1alpha1.TargetImport) []string {
	// An empty list counts as set: it imports no targets, which is allowed.
	msgs := exactlyOne(name, option{"target", imp.Target != ""}, option{"targets", imp.Targets != nil},
		option{"targetListRef", imp.TargetListReference != ""}, option{"targetMap", imp.TargetMap != nil},
		option{"targetMapRef", imp.TargetMapReference != ""})
	for j, t := range imp.Targets {
		if t == "" {
			msgs = append(msgs, fmt.Sprintf("%s.targets[%d] is empty, want the name of a Target", path, j))
		}
	}
	keys := make([]string, 0, len(imp.TargetMap))
	for k := range imp.TargetMap {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !targetMapKey.MatchString(k) {
			msgs = append(msgs, fmt.Sprintf("%s.targetMap: key %q is invalid: use at most 63 lower-case letters, "+
				"digits, '.' and '-', starting and ending with a letter or digit", path, k))
		}
		if imp.TargetMap[k] == "" {
			msgs = append(msgs, fmt.Sprintf("%s.targetMap[%q] is empty, want the name of a Target", path, k))
		}
	}
	return msgs
}

// validateExports checks spec.exports. Names are unique among data exports
// and among target exports.
func validateExports(exports lsv1alpha1.InstallationExports) []string {
	var msgs []string
	seen := map[string]string{}
	for i, exp := range exports.Data {
		path := index("spec.exports.data", i)
		msgs = append(msgs, uniqueName(seen, path, "export", exp.Name)...)
		if exp.DataRef == "" {
			msgs = append(msgs, path+".dataRef is missing")
		}
	}
	seen = map[string]string{}
	for i, exp := range exports.Targets {
		path := index("spec.exports.targets", i)
		msgs = append(msgs, uniqueName(seen, path, "export", exp.Name)...)
		if exp.Target == "" {
			msgs = append(msgs, path+".target is missing")
		}
	}
	return msgs
}

// uniqueName checks that an import or export at path has a name not seen
// before, and records it.
func uniqueName(seen map[string]string, path, what, name string) []string {
	if name == "" {
		return []string{path + ".name is missing"}
	}
	if first, ok := seen[name]; ok {
		return []string{fmt.Sprintf("%s: %s name %q is used twice: first at %s", path, what, name, first)}
	}
	seen[name] = path
	return nil
}
