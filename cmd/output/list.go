package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
)

// The formats List writes.
const (
	FormatJSON = "json"
	FormatYAML = "yaml"
)

// kubeList is a Kubernetes List, the shape of `kubectl get -o json`.
type kubeList struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
}

// List writes objs to w as a Kubernetes List (apiVersion v1, kind List) in
// format "json" (indented by 4 spaces, like kubectl) or "yaml". Items are in
// Landscaper's API shape (apiVersion, kind, metadata, spec, status), sorted
// by kind (Installation, Execution, DeployItem, Target, DataObject, Context,
// Secret, ConfigMap, then other kinds by name), namespace and name. An
// Execution shows spec.deployItems in clear, never deployItemsCompressed.
//
// apiVersion and kind come from the object's TypeMeta when it is set, else
// from its Go type, which must then be one of the Landscaper core/v1alpha1
// or core/v1 types. List does not change objs.
func List(objs []fakecluster.Object, format string, w io.Writer) error {
	if format != FormatJSON && format != FormatYAML {
		return fmt.Errorf("unknown output format %q (allowed: %s, %s)", format, FormatJSON, FormatYAML)
	}
	list := kubeList{APIVersion: "v1", Kind: "List", Items: make([]json.RawMessage, 0, len(objs))}
	for _, o := range sortObjects(objs) {
		item, err := marshalItem(o)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", kindOf(o), qualifiedName(o), err)
		}
		list.Items = append(list.Items, item)
	}
	return writeList(list, format, w)
}

// writeList writes list as JSON (indented by 4 spaces, like kubectl) or YAML.
func writeList(list kubeList, format string, w io.Writer) error {
	data, err := marshalJSON(list, "    ")
	if err != nil {
		return fmt.Errorf("encode list: %w", err)
	}
	if format == FormatYAML {
		if data, err = yaml.JSONToYAML(data); err != nil {
			return fmt.Errorf("convert list to YAML: %w", err)
		}
	}
	_, err = w.Write(data)
	return err
}

// marshalItem encodes o with apiVersion and kind first, as kubectl shows
// them (TypeMeta's own field order is kind, apiVersion).
func marshalItem(o fakecluster.Object) (json.RawMessage, error) {
	obj := o.DeepCopyObject()
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		gvks, _, err := listScheme().ObjectKinds(obj)
		if err != nil {
			return nil, fmt.Errorf("set apiVersion and kind (set TypeMeta for types outside the Landscaper and core/v1 APIs): %w", err)
		}
		gvk = gvks[0]
	}
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	var body []byte
	var err error
	if exec, ok := obj.(*lsv1alpha1.Execution); ok {
		body, err = marshalExecution(exec)
	} else {
		body, err = marshalJSON(obj, "")
	}
	if err != nil {
		return nil, err
	}
	head, err := marshalJSON(struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}{gvk.GroupVersion().String(), gvk.Kind}, "")
	if err != nil {
		return nil, err
	}
	// Join {"apiVersion":..,"kind":..} and {"metadata":..}.
	if len(body) > 2 {
		head = append(head[:len(head)-1], ',')
		body = body[1:]
	} else {
		body = nil
	}
	return append(head, body...), nil
}

func marshalExecution(exec *lsv1alpha1.Execution) (json.RawMessage, error) {
	inClear, err := fakecluster.InClear(exec, exec.TypeMeta)
	if err != nil {
		return nil, err
	}
	return marshalJSON(inClear, "")
}

// marshalJSON encodes v without escaping <, > and & (templates in deploy
// item configurations read better that way), indented when indent is set,
// without a final newline unless indented.
func marshalJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if indent == "" {
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	}
	return buf.Bytes(), nil
}

// listScheme knows the Go types of the kinds lscli stores.
var listScheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := lsv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
})
