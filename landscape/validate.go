package landscape

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
)

// installationNameMaxLength is the longest name of an Installation that
// Landscaper accepts: it writes "Inst." + name into label values, which
// have at most 63 characters.
const installationNameMaxLength = validation.DNS1123LabelMaxLength - len(helper.InstallationPrefix)

// validateObject checks what the API server and Landscaper's webhooks check
// for every object, then what they check for its kind.
func validateObject(kind kindInfo, obj fakecluster.Object) []string {
	msgs := validateMetadata(obj)
	if kind.validate != nil {
		msgs = append(msgs, kind.validate(obj)...)
	}
	return msgs
}

// validateMetadata checks name, namespace, labels and annotations.
func validateMetadata(obj fakecluster.Object) []string {
	var msgs []string
	name := obj.GetName()
	if _, ok := obj.(*lsv1alpha1.Installation); ok {
		msgs = append(msgs, invalidValue("metadata.name", name, validation.IsDNS1123Label(name))...)
		if len(name) > installationNameMaxLength {
			msgs = append(msgs, fmt.Sprintf("metadata.name %q: must be no more than %d characters "+
				"(Landscaper writes %q + name into label values)", name, installationNameMaxLength, helper.InstallationPrefix))
		}
	} else {
		msgs = append(msgs, invalidValue("metadata.name", name, validation.IsDNS1123Subdomain(name))...)
	}
	ns := obj.GetNamespace()
	msgs = append(msgs, invalidValue("metadata.namespace", ns, validation.IsDNS1123Label(ns))...)
	meta := field.NewPath("metadata")
	msgs = append(msgs, fieldErrors(metav1validation.ValidateLabels(obj.GetLabels(), meta.Child("labels")))...)
	msgs = append(msgs, fieldErrors(apivalidation.ValidateAnnotations(obj.GetAnnotations(), meta.Child("annotations")))...)
	return msgs
}

// invalidValue formats the messages of Kubernetes' validation functions.
func invalidValue(path, value string, errs []string) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = fmt.Sprintf("%s %q: %s", path, value, e)
	}
	return msgs
}

// fieldErrors formats errors of Kubernetes' and Landscaper's validation
// packages as "PATH: Invalid value: VALUE: MESSAGE".
func fieldErrors(errs field.ErrorList) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Field + ": " + e.ErrorBody()
	}
	return msgs
}

// validateTarget checks a Target as Landscaper does, and that it has a type:
// deployers select Targets by type.
func validateTarget(obj fakecluster.Object) []string {
	spec := obj.(*lsv1alpha1.Target).Spec
	var msgs []string
	if spec.Type == "" {
		msgs = append(msgs, "spec.type is missing (e.g. "+string(targettypes.KubernetesClusterTargetType)+")")
	}
	if spec.Configuration != nil && spec.SecretRef != nil {
		msgs = append(msgs, "spec: set config or secretRef, not both")
	}
	if spec.SecretRef != nil && spec.SecretRef.Name == "" {
		msgs = append(msgs, "spec.secretRef.name is missing")
	}
	return msgs
}

// validateDeployItem checks a DeployItem as Landscaper does.
func validateDeployItem(obj fakecluster.Object) []string {
	spec := obj.(*lsv1alpha1.DeployItem).Spec
	var msgs []string
	if spec.Type == "" {
		msgs = append(msgs, "spec.type is missing (e.g. landscaper.gardener.cloud/mock)")
	}
	if spec.Target != nil {
		msgs = append(msgs, objectReference("spec.target", *spec.Target)...)
	}
	return msgs
}

// objectReference checks that a reference has name and namespace.
func objectReference(path string, ref lsv1alpha1.ObjectReference) []string {
	var msgs []string
	if ref.Name == "" {
		msgs = append(msgs, path+".name is missing")
	}
	if ref.Namespace == "" {
		msgs = append(msgs, path+".namespace is missing")
	}
	return msgs
}

// option is a field of which exactly one must be set.
type option struct {
	name string
	set  bool
}

// exactlyOne checks that exactly one of the options is set.
func exactlyOne(path string, opts ...option) []string {
	var names, set []string
	for _, o := range opts {
		names = append(names, o.name)
		if o.set {
			set = append(set, o.name)
		}
	}
	if len(set) == 1 {
		return nil
	}
	got := "none"
	if len(set) > 0 {
		got = strings.Join(set, " and ")
	}
	return []string{fmt.Sprintf("%s: set exactly one of %s (got %s)", path, orList(names), got)}
}

// orList joins "a", "b", "c" to "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// item names the entry i of the list at path, with its name if it has one:
// `spec.imports.data[0] ("db")`.
func item(path string, i int, name string) string {
	s := fmt.Sprintf("%s[%d]", path, i)
	if name != "" {
		s += fmt.Sprintf(" (%q)", name)
	}
	return s
}

// index names the entry i of the list at path: spec.imports.data[0].
func index(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}
