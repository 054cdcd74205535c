package fakecluster

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Object is an API object the cluster stores: Kubernetes metadata plus a
// runtime type. Every Landscaper kind and core/v1 Secret and ConfigMap satisfy it.
type Object interface {
	metav1.Object
	runtime.Object
}

// ObjectList is a typed list such as v1alpha1.InstallationList.
type ObjectList interface {
	metav1.ListInterface
	runtime.Object
}

// ListOptions narrows a List. The zero value lists every object of the kind.
type ListOptions struct {
	// Namespace limits the list to one namespace. Empty means every namespace.
	Namespace string
	// LabelSelector limits the list to matching objects. Nil matches everything.
	LabelSelector labels.Selector
	// OwnerUID limits the list to objects that have an owner reference to this
	// UID. Empty means any owner.
	OwnerUID types.UID
	// Field limits the list to objects found under a value of an index
	// registered with Cluster.AddIndex. Nil means no such limit.
	Field *FieldMatch
}

// Reader knows how to read and list objects. Everything Get and List return
// is a copy: changing it does not change the stored object.
type Reader interface {
	// Get copies the object named key into obj. obj must be a pointer to a type
	// registered in the cluster's scheme; its Go type selects the kind.
	// A missing object is an apierrors NotFound error.
	Get(ctx context.Context, key types.NamespacedName, obj Object) error
	// List fills list (e.g. *v1alpha1.InstallationList) with copies of the
	// matching objects, sorted by namespace and name.
	List(ctx context.Context, list ObjectList, opts ListOptions) error
	// GetUnsafe is Get without the deep copy: obj shares everything below
	// its top-level fields with the stored object and must only be read.
	GetUnsafe(ctx context.Context, key types.NamespacedName, obj Object) error
	// ListUnsafe is List without the deep copies: the items share
	// everything below their top-level fields with the stored objects and
	// must only be read.
	ListUnsafe(ctx context.Context, list ObjectList, opts ListOptions) error
}

// Writer knows how to change objects. obj must be a struct pointer so that it
// can be updated with the stored result (name, uid, resourceVersion, ...).
type Writer interface {
	// Create stores a new object. It fills metadata.name from generateName when
	// the name is empty, and sets uid, resourceVersion, generation 1 and
	// creationTimestamp (from the cluster clock). Status is kept as given.
	// An existing object of the same kind and name is an AlreadyExists error.
	Create(ctx context.Context, obj Object) error
	// Update replaces metadata and spec (everything but status for kinds with a
	// status subresource). A stale resourceVersion is a Conflict error.
	// metadata.generation grows when anything but metadata and status changed.
	// Removing the last finalizer of an object marked for deletion removes it.
	Update(ctx context.Context, obj Object) error
	// UpdateStatus replaces only the status. It never changes generation.
	// A stale resourceVersion is a Conflict error.
	UpdateStatus(ctx context.Context, obj Object) error
	// Delete removes the object, or only sets deletionTimestamp while it has
	// finalizers. Removing an object deletes its dependents (owner references)
	// whose owners are all gone, as the garbage collector does.
	Delete(ctx context.Context, obj Object) error
}

// Client reads and writes objects.
type Client interface {
	Reader
	Writer
	// Scheme is the scheme that maps Go types to kinds.
	Scheme() *runtime.Scheme
}

// Key returns the namespace and name of obj, the key Get takes.
func Key(obj Object) types.NamespacedName {
	return types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}
