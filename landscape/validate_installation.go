package landscape

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lsvalidation "github.com/gardener/landscaper/apis/core/validation"
	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// validateInstallation checks an Installation as Landscaper's webhook does
// (ValidateInstallation: metadata, imports, exports, blueprint, component
// descriptor, automatic reconcile), then what the CRD's schema requires of
// a blueprint reference (a resourceName), and, lscli's own check, that an
// inline blueprint has a blueprint.yaml: Landscaper takes an Installation
// without one and fails it when it reads the blueprint.
func validateInstallation(obj fakecluster.Object) []string {
	inst := obj.(*lsv1alpha1.Installation)
	// The conversion of an Installation copies its fields (only an
	// Execution's deploy items are converted by hand): it cannot fail, and
	// the checks below need no converted Installation.
	msgs := webhookErrors("Installation", inst, lsv1alpha1.Convert_v1alpha1_Installation_To_core_Installation,
		lsvalidation.ValidateInstallation, installationHint)
	bp := inst.Spec.Blueprint
	if bp.Reference != nil && bp.Reference.ResourceName == "" {
		msgs = append(msgs, fieldErrors(field.ErrorList{
			field.Required(field.NewPath("spec", "blueprint", "ref", "resourceName"), "")}, nil)...)
	}
	if bp.Inline != nil {
		msgs = append(msgs, validateInlineFilesystem("spec.blueprint.inline.filesystem", bp.Inline.Filesystem.RawMessage)...)
	}
	return append(msgs, endlessAutomaticReconcile(inst.Spec.AutomaticReconcile)...)
}

// endlessAutomaticReconcile is lscli's own check of spec.automaticReconcile:
// an interval that is not positive, without a cronSpec (which wins over it)
// and, for failedReconcile, without numberOfReconciles. Landscaper takes it
// and starts the next automatic reconcile as soon as its clock has moved on
// after a job, for ever; on the virtual clock that is a run without end.
func endlessAutomaticReconcile(ar *lsv1alpha1.AutomaticReconcile) []string {
	if ar == nil {
		return nil
	}
	path := field.NewPath("spec", "automaticReconcile")
	const detail = "Landscaper starts the next automatic reconcile as soon as a job ends, for ever, which lscli cannot run to an end"
	var msgs []string
	if sr := ar.SucceededReconcile; sr != nil && sr.CronSpec == "" && sr.Interval != nil && sr.Interval.Duration <= 0 {
		msgs = append(msgs, fieldErrors(field.ErrorList{field.Invalid(path.Child("succeededReconcile", "interval"),
			durationText(sr.Interval), detail)}, func(*field.Error) string { return "give a positive interval or a cronSpec" })...)
	}
	if fr := ar.FailedReconcile; fr != nil && fr.CronSpec == "" && fr.NumberOfReconciles == nil && fr.Interval != nil && fr.Interval.Duration <= 0 {
		msgs = append(msgs, fieldErrors(field.ErrorList{field.Invalid(path.Child("failedReconcile", "interval"),
			durationText(fr.Interval), detail)}, func(*field.Error) string { return "give a positive interval, a cronSpec or numberOfReconciles" })...)
	}
	return msgs
}

// durationText is d as Landscaper writes it: "none" for zero.
func durationText(d *lsv1alpha1.Duration) string {
	if d.Duration == 0 {
		return "none"
	}
	return d.Duration.String()
}

// installationHint gives lscli's advice for the errors of Landscaper's
// ValidateInstallation.
func installationHint(e *field.Error) string {
	if h := installationNameHint(e); h != "" {
		return h
	}
	if h := exactlyOneHint(e); h != "" {
		return h
	}
	switch {
	case e.Type == field.ErrorTypeDuplicate && strings.HasPrefix(e.Field, "spec.imports."):
		return "import names are unique across spec.imports.data and spec.imports.targets"
	case e.Type == field.ErrorTypeDuplicate && strings.HasPrefix(e.Field, "spec.exports.data"):
		return "export names are unique among spec.exports.data"
	case e.Type == field.ErrorTypeDuplicate && strings.HasPrefix(e.Field, "spec.exports.targets"):
		return "export names are unique among spec.exports.targets"
	case e.Detail == "target must not be empty":
		return "want the name of a Target"
	case strings.HasSuffix(e.Field, ".cronSpec"):
		if spec, ok := e.BadValue.(string); ok {
			if _, err := cron.ParseStandard(spec); err != nil {
				return err.Error()
			}
		}
	}
	return ""
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
