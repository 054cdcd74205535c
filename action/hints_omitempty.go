package action

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	kubescheme "k8s.io/client-go/kubernetes/scheme"
)

// omittedZeroHint says, for a deploy item whose readiness check timed out
// on an object of a built-in kind, that a custom check which selects it
// requires a field to equal its zero value (0, false, "") that the API
// server leaves out of the object when it is zero (omitempty in
// k8s.io/api: a DaemonSet's status.numberUnavailable, a Deployment's
// status.unavailableReplicas). Landscaper's custom check fails on a field
// that does not exist, so such a requirement never holds, on a real
// cluster too. It is empty for other items and requirements, and for
// paths other than plain dotted field names.
func omittedZeroHint(di *lsv1alpha1.DeployItem) string {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return ""
	}
	m := readinessObjectTimeout.FindStringSubmatch(le.Message)
	if m == nil {
		return ""
	}
	ns, name, kind := m[1], m[2], m[3]
	for _, c := range checkConfigOf(di).ReadinessChecks.CustomReadinessChecks {
		i := slices.IndexFunc(c.Resource, func(r lsv1alpha1.TypedObjectReference) bool {
			return r.Kind == kind && r.Name == name && r.Namespace == ns
		})
		if i < 0 {
			continue
		}
		gvk := schema.FromAPIVersionAndKind(c.Resource[i].APIVersion, kind)
		for _, r := range c.Requirements {
			if r.Operator != selection.Equals && r.Operator != selection.DoubleEquals && r.Operator != selection.In {
				continue
			}
			zero := ""
			for _, v := range r.Value {
				var value struct{ Value json.RawMessage }
				if json.Unmarshal(v.Raw, &value) == nil && slices.Contains([]string{"0", "false", `""`}, string(value.Value)) {
					zero = string(value.Value)
				}
			}
			if zero == "" || !omittedWhenZero(gvk, r.JsonPath) {
				continue
			}
			return fmt.Sprintf("DeployItem %s/%s: its readiness check timed out on %s %s/%s: the custom check %q requires "+
				"%s %s %s, but the API server leaves that field out of a %s when it is %s (omitempty in k8s.io/api), so "+
				"the field does not exist exactly when the requirement would hold, and Landscaper's check fails on a "+
				"field that does not exist, on a real cluster too. Require that it does not exist instead "+
				"(`operator: \"!\"`, selection's DoesNotExist), with a second requirement on a field the controller "+
				"always writes (such as .status.observedGeneration, operator exists): all requirements of a check must hold",
				di.Namespace, di.Name, kind, ns, name, c.Name, r.JsonPath, r.Operator, zero, kind, zero)
		}
	}
	return ""
}

// omittedWhenZero reports whether the field at path (a plain dotted path
// such as .status.numberUnavailable) of the built-in kind gvk is left out
// of the object's JSON when it has its zero value: its Go field's json tag
// says omitempty and it is a number, a bool or a string.
func omittedWhenZero(gvk schema.GroupVersionKind, path string) bool {
	obj, err := kubescheme.Scheme.New(gvk)
	if err != nil || strings.ContainsAny(path, "[]{}()@*?") {
		return false
	}
	t := reflect.TypeOf(obj)
	omit := false
	for _, part := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return false
		}
		f, ok := jsonField(t, part)
		if !ok {
			return false
		}
		t, omit = f.Type, strings.Contains(f.Tag.Get("json"), ",omitempty")
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int32, reflect.Int64, reflect.Float64:
		return omit
	}
	return false
}

// jsonField is the field of struct type t whose JSON name is name,
// looking into embedded structs (metav1.TypeMeta, ObjectMeta inline).
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f, true
		}
		if f.Anonymous && (tag == "" || strings.Contains(f.Tag.Get("json"), ",inline")) && f.Type.Kind() == reflect.Struct {
			if g, ok := jsonField(f.Type, name); ok {
				return g, true
			}
		}
	}
	return reflect.StructField{}, false
}
