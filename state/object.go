package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// wireObject returns what to marshal for obj: obj itself when its TypeMeta
// already names its kind, otherwise a shallow copy with TypeMeta set from the
// scheme, so that Save never changes the caller's objects.
func wireObject(scheme *runtime.Scheme, obj fakecluster.Object) (any, error) {
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return nil, fmt.Errorf("%T %s: %w", obj, objectKey(obj), err)
	}
	gvk := gvks[0]
	if ex, ok := obj.(*lsv1alpha1.Execution); ok {
		return fakecluster.InClear(ex, metav1.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind})
	}
	switch own := obj.GetObjectKind().GroupVersionKind(); own {
	case gvk:
		return obj, nil
	case schema.GroupVersionKind{}:
		cp := reflect.New(reflect.TypeOf(obj).Elem())
		cp.Elem().Set(reflect.ValueOf(obj).Elem())
		out := cp.Interface().(runtime.Object)
		out.GetObjectKind().SetGroupVersionKind(gvk)
		return out, nil
	default:
		return nil, fmt.Errorf("%s %s: apiVersion %q and kind %q do not match its type %T (%s)",
			gvk.Kind, objectKey(obj), own.GroupVersion(), own.Kind, obj, gvk)
	}
}

// describe names obj in errors as "Kind namespace/name".
func describe(scheme *runtime.Scheme, obj fakecluster.Object) string {
	if gvks, _, err := scheme.ObjectKinds(obj); err == nil {
		return gvks[0].Kind + " " + objectKey(obj)
	}
	return fmt.Sprintf("%T %s", obj, objectKey(obj))
}

// objectKey is "namespace/name", or "name" for cluster-scoped objects.
func objectKey(obj metav1.Object) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}

// decodeObject decodes one object of the state file. Its apiVersion and kind
// pick the Go type through the scheme; a kind the scheme does not know is an
// error naming the object.
func decodeObject(scheme *runtime.Scheme, data []byte) (fakecluster.Object, error) {
	gvk, err := peekGVK(data)
	if err != nil {
		return nil, err
	}
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, fmt.Errorf("object %s has no apiVersion or kind", peekKey(data))
	}
	obj, err := newObject(scheme, gvk)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", gvk.Kind, peekKey(data), err)
	}
	if err := unmarshalObject(data, obj); err != nil {
		return nil, fmt.Errorf("%s %s: %w", gvk.Kind, peekKey(data), err)
	}
	return obj, nil
}

// unmarshalObject decodes data into obj: an Execution first in the form
// Save writes it (see unmarshalInClear), which also reads a spec given as
// null (Save never writes one; a file edited by hand may hold one) as no
// spec, as the API server prunes a null it does not allow and lscli's
// loader reads one. Landscaper's ExecutionSpec UnmarshalJSON, which takes
// any other Execution, cannot read null and panics: such an Execution's
// error is the one its in-clear decoding gave. Any other panic of a
// type's own decoding is an error, not a crash of lscli.
func unmarshalObject(data []byte, obj fakecluster.Object) error {
	var inClearErr error
	if exec, isExec := obj.(*lsv1alpha1.Execution); isExec {
		var taken bool
		if taken, inClearErr = unmarshalInClear(data, exec); taken {
			return nil
		}
	}
	panicked, err := tryUnmarshal(data, obj)
	switch {
	case panicked == nil:
		return err
	case inClearErr != nil:
		return inClearErr
	}
	return fmt.Errorf("cannot decode: %v", panicked)
}

// unmarshalInClear decodes data, an Execution as Save writes it (its deploy
// items in clear), into exec, and reports whether it took it: Landscaper's
// ExecutionSpec UnmarshalJSON decodes the spec a second time, through
// encoding/json, only to inflate deployItemsCompressed, which Save never
// writes. An Execution that holds them, or does not decode (err), is left
// to the spec's own decoding, with its messages.
func unmarshalInClear(data []byte, exec *lsv1alpha1.Execution) (taken bool, err error) {
	var in fakecluster.ExecutionInClear
	if err := fastjson.Unmarshal(data, &in); err != nil {
		return false, err
	}
	if len(in.Spec.DeployItemsCompressed) > 0 {
		return false, nil
	}
	*exec = lsv1alpha1.Execution{TypeMeta: in.TypeMeta, ObjectMeta: in.ObjectMeta,
		Spec: lsv1alpha1.ExecutionSpec(in.Spec), Status: in.Status}
	return true, nil
}

// tryUnmarshal is fastjson.Unmarshal that returns what it panicked with,
// if it did.
func tryUnmarshal(data []byte, obj fakecluster.Object) (panicked any, err error) {
	defer func() { panicked = recover() }()
	return nil, fastjson.Unmarshal(data, obj)
}

// newObject returns a new, empty object of kind gvk.
func newObject(scheme *runtime.Scheme, gvk schema.GroupVersionKind) (fakecluster.Object, error) {
	ro, err := scheme.New(gvk)
	if err != nil {
		return nil, fmt.Errorf("unknown kind (apiVersion %s)", gvk.GroupVersion())
	}
	obj, ok := ro.(fakecluster.Object)
	if !ok {
		return nil, errors.New("kind has no object metadata")
	}
	return obj, nil
}

// peekGVK reads apiVersion and kind. Save writes them first, as
// {"kind":"...","apiVersion":"...", so that prefix is read without parsing the
// whole object; anything else (a hand-edited object) takes the slow way.
func peekGVK(data []byte) (schema.GroupVersionKind, error) {
	kind, rest, ok := cutString(data, `{"kind":"`)
	if ok {
		var apiVersion string
		if apiVersion, _, ok = cutString(rest, `,"apiVersion":"`); ok {
			gv, err := schema.ParseGroupVersion(apiVersion)
			if err == nil {
				return gv.WithKind(kind), nil
			}
		}
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("object: %w", err)
	}
	gv, err := schema.ParseGroupVersion(tm.APIVersion)
	if err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("%s %s: %w", tm.Kind, peekKey(data), err)
	}
	return gv.WithKind(tm.Kind), nil
}

// cutString reads the plain JSON string (no escapes) that follows prefix in
// data and returns it and the bytes after its closing quote.
func cutString(data []byte, prefix string) (s string, rest []byte, ok bool) {
	if !bytes.HasPrefix(data, []byte(prefix)) {
		return "", nil, false
	}
	data = data[len(prefix):]
	end := bytes.IndexByte(data, '"')
	if end < 0 || bytes.IndexByte(data[:end], '\\') >= 0 {
		return "", nil, false
	}
	return string(data[:end]), data[end+1:], true
}

// peekKey returns "namespace/name" of an object for error messages, or
// "(unnamed)" when it cannot be read.
func peekKey(data []byte) string {
	var o struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &o); err != nil || o.Metadata.Name == "" {
		return "(unnamed)"
	}
	return objectKey(&metav1.ObjectMeta{Name: o.Metadata.Name, Namespace: o.Metadata.Namespace})
}
