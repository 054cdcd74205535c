package landscape

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	lsvalidation "github.com/gardener/landscaper/apis/core/validation"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/apilimits"
	"github.com/lscli/lscli/internal/apiwords"
)

// Messages of the checks below are the field errors Landscaper's webhooks
// and the API server return ("spec.type: Required value: type must not be
// empty"), so that they read as a cluster's do, followed by lscli's advice
// in parentheses where there is some. Checks that Landscaper does not make
// but the CRD's schema does ("spec.type: Required value") are written as
// kube-apiserver writes them; checks of lscli's own say so in their doc
// comments and in docs/semantics.md.

// validateObject checks what the API server and Landscaper's webhooks check
// for every object, then what they check for its kind.
func validateObject(kind kindInfo, obj fakecluster.Object) []string {
	msgs := validateMetadata(obj)
	if kind.validate != nil {
		msgs = append(msgs, kind.validate(obj)...)
	}
	if n, tooLarge := fakecluster.TooLargeToStore(kind.gvk, obj); tooLarge {
		// kube-apiserver passes etcd's refusal on as it is.
		msgs = append(msgs, fmt.Sprintf("etcdserver: request is too large (the object is %d bytes of JSON, and the etcd "+
			"of a Landscaper cluster stores at most %d in one write: move large files out of it, into a blueprint or "+
			"helm chart of a component version, or split them over several objects)", n, apilimits.EtcdMaxRequestBytes))
	}
	return msgs
}

// validateMetadata checks name, namespace, labels, annotations, finalizers
// and owner references as the API server does for every object
// (ValidateObjectMeta, names DNS subdomains). An Installation's metadata is
// checked by Landscaper's webhook instead (validateInstallation), which
// wants a DNS label of at most 58 characters.
func validateMetadata(obj fakecluster.Object) []string {
	if _, ok := obj.(*lsv1alpha1.Installation); ok {
		return nil
	}
	return fieldErrors(apivalidation.ValidateObjectMetaAccessor(obj, true, apivalidation.NameIsDNSSubdomain,
		field.NewPath("metadata")), nil)
}

// hinter returns lscli's advice for an error of Landscaper's validation, or
// "" when it has none.
type hinter func(e *field.Error) string

// fieldErrors formats errors of Kubernetes' and Landscaper's validation as
// they print them, "PATH: TYPE: VALUE: DETAIL" (see fieldError), each with
// the advice of hint, if any, in parentheses.
func fieldErrors(errs field.ErrorList, hint hinter) []string {
	errs = mapOrder(errs)
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = fieldError(e)
		if hint == nil {
			continue
		}
		if h := hint(e); h != "" {
			msgs[i] += " (" + h + ")"
		}
	}
	return msgs
}

// mapOrder returns errs with the errors about the keys of one map, which
// Landscaper finds in Go's random map order (a target import's targetMap),
// sorted by key, so that the same input always gives the same messages.
func mapOrder(errs field.ErrorList) field.ErrorList {
	out := slices.Clone(errs)
	mapOf := func(e *field.Error) string {
		m, _, ok := strings.Cut(e.Field, ".targetMap[")
		if !ok {
			return ""
		}
		return m
	}
	for start := 0; start < len(out); {
		end := start + 1
		if m := mapOf(out[start]); m != "" {
			for end < len(out) && mapOf(out[end]) == m {
				end++
			}
			slices.SortStableFunc(out[start:end], func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
		}
		start = end
	}
	return out
}

// maxValueLength is the longest JSON of a structured bad value that
// fieldError prints.
const maxValueLength = 80

// fieldError formats e as e.Error() does, except that a structured bad
// value (Landscaper passes whole import definitions and target specs) whose
// JSON is longer than maxValueLength is written {...} or [...]: the field
// path says which value it is, and a target's config may be long and
// secret.
func fieldError(e *field.Error) string {
	switch e.BadValue.(type) {
	case nil, string, bool, int32, int64, float32, float64, field.OmitValueType:
		return e.Error()
	}
	js, err := json.Marshal(e.BadValue)
	if err == nil && len(js) <= maxValueLength {
		return e.Error()
	}
	value := "{...}"
	if err == nil && js[0] == '[' {
		value = "[...]"
	}
	msg := fmt.Sprintf("%s: %s: %s", e.Field, e.Type, value)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// webhookErrors converts obj to Landscaper's internal version with
// convert, as its webhooks receive it, and returns what validate (the
// webhook's check of kind) finds there, in the words of the apimachinery
// Landscaper is built with (apiwords.AsLandscaper), with the advice of
// hint; or the problem of the conversion.
func webhookErrors[V, I any](kind string, obj *V, convert func(*V, *I, conversion.Scope) error,
	validate func(*I) field.ErrorList, hint hinter) []string {
	var c I
	if err := convert(obj, &c, nil); err != nil {
		return []string{fmt.Sprintf("cannot convert the %s to Landscaper's internal version for its validation: %v", kind, err)}
	}
	return fieldErrors(apiwords.AsLandscaper(validate(&c)), hint)
}

// validateTarget checks a Target as Landscaper's webhook does
// (ValidateTarget), and what the CRD's schema requires: a type and a
// secretRef's name. lscli refuses an empty type too, which the schema takes
// when the key is written (type: ""): no import of it matches a blueprint's
// targetType.
func validateTarget(obj fakecluster.Object) []string {
	t := obj.(*lsv1alpha1.Target)
	var msgs []string
	spec := field.NewPath("spec")
	if t.Spec.Type == "" {
		msgs = append(msgs, fieldErrors(field.ErrorList{field.Required(spec.Child("type"), "")}, func(*field.Error) string {
			return "e.g. " + string(targettypes.KubernetesClusterTargetType)
		})...)
	}
	// The conversion of a Target copies its fields: it cannot fail.
	msgs = append(msgs, webhookErrors("Target", t, lsv1alpha1.Convert_v1alpha1_Target_To_core_Target,
		lsvalidation.ValidateTarget, func(*field.Error) string {
			return "keep one of the keys config and secretRef"
		})...)
	if t.Spec.SecretRef != nil && t.Spec.SecretRef.Name == "" {
		msgs = append(msgs, fieldErrors(field.ErrorList{field.Required(spec.Child("secretRef", "name"), "")}, nil)...)
	}
	return msgs
}

// validateDeployItem checks a DeployItem as Landscaper's webhook does
// (ValidateDeployItem).
func validateDeployItem(obj fakecluster.Object) []string {
	return webhookErrors("DeployItem", obj.(*lsv1alpha1.DeployItem), lsv1alpha1.Convert_v1alpha1_DeployItem_To_core_DeployItem,
		lsvalidation.ValidateDeployItem, typeHint)
}

// typeHint gives an example of a deploy item's type when it is missing.
func typeHint(e *field.Error) string {
	if e.Type == field.ErrorTypeRequired && strings.HasSuffix(e.Field, ".type") {
		return "e.g. landscaper.gardener.cloud/mock"
	}
	return ""
}

// yamlKeys are the keys in YAML of the Go fields that Landscaper's
// ValidateExactlyOneOf names.
var yamlKeys = map[string]string{
	"Inline":              "inline",
	"Reference":           "ref",
	"DataRef":             "dataRef",
	"SecretRef":           "secretRef",
	"ConfigMapRef":        "configMapRef",
	"Target":              "target",
	"Targets":             "targets",
	"TargetMap":           "targetMap",
	"TargetMapReference":  "targetMapRef",
	"TargetListReference": "targetListRef",
}

// exactlyOneHint translates the Go field names of Landscaper's "exactly one
// of [Inline, Reference] must be set" into the keys of the YAML.
func exactlyOneHint(e *field.Error) string {
	rest, ok := strings.CutPrefix(e.Detail, "exactly one of [")
	if !ok {
		return ""
	}
	names, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	var keys []string
	for _, n := range strings.Split(names, ", ") {
		if k, ok := yamlKeys[n]; ok {
			keys = append(keys, k)
		} else {
			keys = append(keys, n)
		}
	}
	return "set exactly one of the keys " + orList(keys)
}

// orList joins "a", "b", "c" to "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// installationNameHint explains Landscaper's limit of an Installation's
// name.
func installationNameHint(e *field.Error) string {
	if e.Field == "metadata.name" && strings.HasPrefix(e.Detail, "must be no more than") {
		return fmt.Sprintf("Landscaper writes %q + name into label values, which have at most 63 characters", helper.InstallationPrefix)
	}
	return ""
}
