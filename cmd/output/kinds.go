package output

import (
	"cmp"
	"reflect"
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
)

// The kinds this package knows, in the order List and Table show them.
const (
	kindInstallation = "Installation"
	kindExecution    = "Execution"
	kindDeployItem   = "DeployItem"
	kindTarget       = "Target"
	kindDataObject   = "DataObject"
	kindContext      = "Context"
	kindSecret       = "Secret"
	kindConfigMap    = "ConfigMap"
)

var kindOrder = map[string]int{
	kindInstallation: 0, kindExecution: 1, kindDeployItem: 2, kindTarget: 3,
	kindDataObject: 4, kindContext: 5, kindSecret: 6, kindConfigMap: 7,
}

// kindOf names the kind of obj: from its Go type for the known kinds, else
// from its TypeMeta, else from the Go type name.
func kindOf(obj runtime.Object) string {
	switch obj.(type) {
	case *lsv1alpha1.Installation:
		return kindInstallation
	case *lsv1alpha1.Execution:
		return kindExecution
	case *lsv1alpha1.DeployItem:
		return kindDeployItem
	case *lsv1alpha1.Target:
		return kindTarget
	case *lsv1alpha1.DataObject:
		return kindDataObject
	case *lsv1alpha1.Context:
		return kindContext
	case *corev1.Secret:
		return kindSecret
	case *corev1.ConfigMap:
		return kindConfigMap
	}
	if k := obj.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	t := reflect.TypeOf(obj)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// compareKinds orders the known kinds first, in kindOrder, then the others
// by name.
func compareKinds(a, b string) int {
	ia, oka := kindOrder[a]
	ib, okb := kindOrder[b]
	switch {
	case oka && okb:
		return cmp.Compare(ia, ib)
	case oka:
		return -1
	case okb:
		return 1
	}
	return cmp.Compare(a, b)
}

// sortObjects returns objs sorted by kind, namespace and name. It does not
// change objs.
func sortObjects(objs []fakecluster.Object) []fakecluster.Object {
	return sortListOrder(objs, func(o fakecluster.Object) (string, string, string) {
		return kindOf(o), o.GetNamespace(), o.GetName()
	})
}

// sortListOrder returns items in the order List shows objects: by kind
// (see compareKinds), then namespace and name, items with the same three
// in their order in items. It does not change items. It sorts the items
// of each kind apart, and not at all when they are in order already, as
// the API server lists them.
func sortListOrder[T any](items []T, key func(T) (kind, namespace, name string)) []T {
	type keyed struct {
		item            T
		namespace, name string
	}
	byKind := map[string][]keyed{}
	counts := map[string]int{}
	for _, it := range items {
		kind, _, _ := key(it)
		counts[kind]++
	}
	kinds := make([]string, 0, len(counts))
	for _, it := range items {
		kind, ns, name := key(it)
		group, ok := byKind[kind]
		if !ok {
			kinds = append(kinds, kind)
			group = make([]keyed, 0, counts[kind])
		}
		byKind[kind] = append(group, keyed{it, ns, name})
	}
	slices.SortFunc(kinds, compareKinds)
	order := func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	}
	out := make([]T, 0, len(items))
	for _, kind := range kinds {
		group := byKind[kind]
		if !slices.IsSortedFunc(group, order) {
			slices.SortStableFunc(group, order)
		}
		for _, k := range group {
			out = append(out, k.item)
		}
	}
	return out
}

// status is what the tree and the tables show of the status of the three
// kinds with a phase.
type status struct {
	phase              string
	jobID              string
	jobIDFinished      string
	observedGeneration int64
	lastError          *lsv1alpha1.Error
	// firstError is a deploy item's first error of its job, which its
	// deployer keeps while later errors replace lastError.
	firstError *lsv1alpha1.Error
}

// statusOf returns the status of an Installation, Execution or DeployItem,
// and false for other kinds.
func statusOf(obj runtime.Object) (status, bool) {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		s := o.Status
		return status{string(s.InstallationPhase), s.JobID, s.JobIDFinished, s.ObservedGeneration, s.LastError, nil}, true
	case *lsv1alpha1.Execution:
		s := o.Status
		return status{string(s.ExecutionPhase), s.JobID, s.JobIDFinished, s.ObservedGeneration, s.LastError, nil}, true
	case *lsv1alpha1.DeployItem:
		s := o.Status
		return status{string(s.Phase), s.JobID, s.JobIDFinished, s.ObservedGeneration, s.LastError, s.FirstError}, true
	}
	return status{}, false
}

// otherFirstError returns a deploy item's first error of its job when it
// is another error than the last one (operation, reason or message), else
// nil.
func (s status) otherFirstError() *lsv1alpha1.Error {
	f, l := s.firstError, s.lastError
	if f == nil || l != nil && f.Operation == l.Operation && f.Reason == l.Reason && f.Message == l.Message {
		return nil
	}
	return f
}

// maskedCause returns a deploy item's first error when its last error is a
// timeout that replaced it: the deployer retried the first error until the
// timeout ended the job, so the first error says why. It is nil otherwise.
func (s status) maskedCause() *lsv1alpha1.Error {
	if s.lastError == nil || !slices.Contains(s.lastError.Codes, lsv1alpha1.ErrorTimeout) {
		return nil
	}
	return s.otherFirstError()
}

// running reports whether the object works on a job it has not finished.
func (s status) running() bool {
	return s.jobID != "" && s.jobID != s.jobIDFinished
}

// qualifiedName is "namespace/name", or the name alone for an object
// without a namespace.
func qualifiedName(obj metav1.Object) string { return qualified(obj.GetNamespace(), obj.GetName()) }

// qualified is "namespace/name", or "name" without a namespace.
func qualified(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
