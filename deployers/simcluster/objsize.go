package simcluster

import (
	"bytes"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/lscli/lscli/internal/apilimits"
)

// checkBodySize refuses obj, a whole object a client sends to create or
// replace one, when its JSON is larger than kube-apiserver reads
// (413 RequestEntityTooLarge, as handlers/rest.go limitedReadBody answers).
func checkBodySize(obj runtime.Object) error {
	if m, isProto := obj.(interface{ Size() int }); isProto && 2*m.Size() < apilimits.MaxRequestBodyBytes {
		return nil // its JSON is not twice its protobuf: no need to encode it
	}
	if u, isU := obj.(*unstructured.Unstructured); isU {
		if n, ok := jsonSizeBound(u.Object); ok && n <= apilimits.MaxRequestBodyBytes {
			return nil
		}
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil // the write fails on its own later
	}
	if len(raw) > apilimits.MaxRequestBodyBytes {
		return apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", apilimits.MaxRequestBodyBytes))
	}
	return nil
}

// checkStoredSize refuses out, an object about to be stored under key
// (the etcd key's path below the registry prefix), when etcd would refuse
// the put: its encoding as kube-apiserver stores it (protobuf for the kinds
// the scheme has typed, JSON for custom resources) with the key and the
// transaction around them is larger than etcd takes. Dry runs store nothing.
func (t *tracker) checkStoredSize(out runtime.Object, key string, dryRun []string) error {
	if len(dryRun) > 0 {
		return nil
	}
	n, ok := t.storedSize(out)
	if !ok {
		return nil
	}
	if apilimits.TooLargeForEtcd(n, key) {
		return apilimits.ErrRequestTooLarge()
	}
	return nil
}

// storedSize is the size of obj's encoding in etcd, or a bound of it that
// tells as well whether etcd takes it; ok false when it cannot be told.
// It encodes only what may be too large: a protobuf message's Size, or an
// unstructured object's JSON (larger than its protobuf), is below the limit
// for nearly every write.
func (t *tracker) storedSize(obj runtime.Object) (int, bool) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	typed := obj
	if u, isU := obj.(*unstructured.Unstructured); isU {
		if n, ok := jsonSizeBound(u.Object); ok && n < apilimits.EtcdMaxRequestBytes/2 {
			return n, true // its JSON is larger than its protobuf, and this bounds its JSON
		}
		raw, err := u.MarshalJSON()
		if err != nil {
			return 0, false
		}
		tobj, err := t.scheme.New(gvk)
		if _, stillU := tobj.(*unstructured.Unstructured); err != nil || stillU || len(raw) < apilimits.EtcdMaxRequestBytes/2 {
			return len(raw), true // custom resources are stored as JSON
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, tobj); err != nil {
			return 0, false
		}
		tobj.GetObjectKind().SetGroupVersionKind(gvk)
		typed = tobj
	}
	if m, isProto := typed.(interface{ Size() int }); isProto && m.Size() < apilimits.EtcdMaxRequestBytes/2 {
		return m.Size(), true
	}
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(t.scheme, t.scheme).Encode(typed, &buf); err != nil {
		raw, err := json.Marshal(typed)
		return len(raw), err == nil
	}
	return buf.Len(), true
}

// storageKey is the etcd key of obj, stored as gvr, as kube-apiserver
// builds it: prefix, group, resource, namespace (if any), name.
func storageKey(gvr schema.GroupVersionResource, obj runtime.Object) string {
	key := "/registry/" + gvr.Group + "/" + gvr.Resource + "/"
	m, err := meta.Accessor(obj)
	if err != nil {
		return key
	}
	if m.GetNamespace() != "" {
		key += m.GetNamespace() + "/"
	}
	return key + m.GetName()
}

// jsonSizeBound is an upper bound of the length of v's JSON encoding (v an
// unstructured object's content), computed without encoding it: a string
// takes at most six bytes a byte (\u00XX) and its quotes; ok false for a
// value of a type unstructured content does not hold.
func jsonSizeBound(v any) (n int, ok bool) {
	switch x := v.(type) {
	case nil:
		return len("null"), true
	case bool:
		return len("false"), true
	case string:
		return 6*len(x) + 2, true
	case int64, int32, int, float64, float32:
		return 32, true
	case json.Number:
		return len(x), true
	case map[string]any:
		n = 2
		for k, e := range x {
			m, ok := jsonSizeBound(e)
			if !ok {
				return 0, false
			}
			n += 6*len(k) + 2 + 1 + m + 1 // key, colon, value, comma
		}
		return n, true
	case []any:
		n = 2
		for _, e := range x {
			m, ok := jsonSizeBound(e)
			if !ok {
				return 0, false
			}
			n += m + 1
		}
		return n, true
	}
	return 0, false
}
