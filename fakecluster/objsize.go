package fakecluster

import (
	"encoding/json"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/internal/apilimits"
)

// Landscaper's objects are custom resources, which kube-apiserver stores in
// etcd as JSON; etcd refuses a put larger than its --max-request-bytes
// (1.5 MiB), and the write fails with 500 "etcdserver: request is too
// large". An Installation whose inline blueprint holds a large file, or the
// DeployItem of a manifest item that inlines a release file of CRDs
// (tigera-operator.yaml is 1.5 MB), is refused so on a Landscaper cluster;
// lscli's API server refuses it the same way. (An Execution keeps its
// deploy items gzipped, spec.deployItemsCompressed, so it is rarely the one
// refused.)
//
// Encoding every write to measure it would cost a run of 10,000
// installations seconds, so only an object whose raw JSON fields (inline
// blueprints, configurations, data, provider status, a Secret's or
// ConfigMap's data) hold at least checkSizeFrom bytes is encoded: the rest
// of a Landscaper object does not come near a megabyte.

// checkSizeFrom is the size of raw JSON fields from which a write is
// measured.
const checkSizeFrom = 256 << 10

// checkStoredSize refuses obj, of kind gvk, about to be stored, when etcd
// would refuse to store it.
func checkStoredSize(gvk schema.GroupVersionKind, obj Object) error {
	if _, tooLarge := TooLargeToStore(gvk, obj); tooLarge {
		return apilimits.ErrRequestTooLarge()
	}
	return nil
}

// TooLargeToStore reports whether etcd would refuse to store obj, of kind
// gvk, in one write, and then the length of obj's JSON. Only objects with
// checkSizeFrom bytes of raw fields are measured.
func TooLargeToStore(gvk schema.GroupVersionKind, obj Object) (int, bool) {
	if rawBytes(obj) < checkSizeFrom {
		return 0, false
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return 0, false // not measured; it is stored as before
	}
	return len(raw), apilimits.TooLargeForEtcd(len(raw), storageKey(gvk.GroupKind(), obj))
}

// storageKey is the etcd key kube-apiserver stores obj under, below its
// prefix: group (none for the core group), resource, namespace, name.
func storageKey(gk schema.GroupKind, obj Object) string {
	gr := groupResource(gk)
	key := "/registry/"
	if gr.Group != "" {
		key += gr.Group + "/"
	}
	key += gr.Resource + "/"
	if ns := obj.GetNamespace(); ns != "" {
		key += ns + "/"
	}
	return key + obj.GetName()
}

// rawBytes is the length of obj's raw JSON and data fields, the parts of
// the objects lscli stores that may be large.
func rawBytes(obj Object) int {
	n := 0
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		if o.Spec.Blueprint.Inline != nil {
			n += len(o.Spec.Blueprint.Inline.Filesystem.RawMessage)
		}
		for _, v := range o.Spec.ImportDataMappings {
			n += len(v.RawMessage)
		}
	case *lsv1alpha1.Execution:
		n += len(o.Spec.DeployItemsCompressed)
		for _, t := range o.Spec.DeployItems {
			if t.Configuration != nil {
				n += len(t.Configuration.Raw)
			}
		}
	case *lsv1alpha1.DeployItem:
		if o.Spec.Configuration != nil {
			n += len(o.Spec.Configuration.Raw)
		}
		if o.Status.ProviderStatus != nil {
			n += len(o.Status.ProviderStatus.Raw)
		}
	case *lsv1alpha1.DataObject:
		n += len(o.Data.RawMessage)
	case *lsv1alpha1.Target:
		if o.Spec.Configuration != nil {
			n += len(o.Spec.Configuration.RawMessage)
		}
	case *corev1.Secret:
		for _, v := range o.Data {
			n += len(v)
		}
		for _, v := range o.StringData {
			n += len(v)
		}
	case *corev1.ConfigMap:
		for _, v := range o.Data {
			n += len(v)
		}
		for _, v := range o.BinaryData {
			n += len(v)
		}
	}
	return n
}
