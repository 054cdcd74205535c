package fakecluster

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Create stores a new object. See Writer. Besides the rules there, a set
// resourceVersion is a BadRequest error, a missing name and generateName, a
// missing namespace, a name that is not a DNS subdomain or an invalid label
// is an Invalid error (see validateMeta), and deletionTimestamp is cleared.
func (c *Cluster) Create(ctx context.Context, obj Object) error {
	return c.write(ctx, "create", obj, c.createLocked)
}

// Update replaces metadata and spec. See Writer. An empty resourceVersion is
// an Invalid error, as for custom resources in kube-apiserver; so are adding a
// finalizer to an object marked for deletion and an invalid label. An update that changes nothing
// is not a write: resourceVersion stays and no event is sent.
func (c *Cluster) Update(ctx context.Context, obj Object) error {
	return c.write(ctx, "update", obj, c.updateLocked)
}

// UpdateStatus replaces only the status. See Writer. Kinds without a status
// subresource (a Status field of struct type) get a BadRequest error. A write
// that changes nothing does not change resourceVersion and sends no event.
func (c *Cluster) UpdateStatus(ctx context.Context, obj Object) error {
	return c.write(ctx, "update status of", obj, c.updateStatusLocked)
}

// lockedOp is a write done under the lock. It returns the stored result
// itself, which nobody may change (the store never changes a stored object
// in place), and how the result came from obj; write makes the caller's
// object a copy of it after the lock.
type lockedOp func(gvk schema.GroupVersionKind, obj Object) (Object, resultOrigin, error)

// resultOrigin says what a write's result has of the object written, so
// that write copies back only what may differ (see copyResultInto).
type resultOrigin int

const (
	// storedResult: the result may differ from the object written anywhere.
	storedResult resultOrigin = iota
	// createdResult: the result is a copy of the object written (as
	// copyObject copies) in which the server set its fields (see
	// setCreatedFields).
	createdResult
	// statusResult: the result's status is a copy of the object written's.
	statusResult
)

// write runs op under the lock, delivers the events it caused and makes obj
// a copy of the result. The copy is made after the lock, straight into obj
// (the result is a stored object, and stored objects never change), and
// only of what obj does not hold already (see copyResultInto).
func (c *Cluster) write(ctx context.Context, verb string, obj Object, op lockedOp) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	gvk, err := c.kindOf(obj)
	if err != nil {
		return fmt.Errorf("%s %s/%s: %w", verb, obj.GetNamespace(), obj.GetName(), err)
	}
	c.mu.Lock()
	result, origin, err := op(gvk, obj)
	c.mu.Unlock()
	c.deliver()
	if err != nil {
		return err
	}
	if origin == createdResult {
		setCreatedFields(obj, result)
		return nil
	}
	return copyResultInto(obj, result, origin == statusResult)
}

func (c *Cluster) createLocked(gvk schema.GroupVersionKind, obj Object) (Object, resultOrigin, error) {
	next := copyObject(obj)
	if err := validateCreate(gvk.GroupKind(), next); err != nil {
		return nil, storedResult, err
	}
	if next.GetName() == "" {
		if err := c.generateNameLocked(gvk.GroupKind(), next); err != nil {
			return nil, storedResult, err
		}
	}
	if err := validateMeta(gvk.GroupKind(), next, true); err != nil {
		return nil, storedResult, err
	}
	k := keyOf(gvk, next)
	if _, exists := c.store.get(k); exists {
		return nil, storedResult, apierrors.NewAlreadyExists(groupResource(k.gk), k.name)
	}
	next.GetObjectKind().SetGroupVersionKind(gvk)
	next.SetGeneration(0)
	if HasGeneration(gvk.GroupKind()) {
		next.SetGeneration(1)
	}
	next.SetCreationTimestamp(c.timestamp())
	uid, err := c.newUIDLocked(k.gk, next)
	if err != nil {
		return nil, storedResult, fmt.Errorf("create %s %s/%s: %w", gvk.Kind, k.namespace, k.name, err)
	}
	next.SetUID(uid)
	next.SetDeletionTimestamp(nil)
	next.SetDeletionGracePeriodSeconds(nil)
	if err := checkStoredSize(gvk, next); err != nil { // objsize.go
		return nil, storedResult, err
	}
	next.SetResourceVersion(c.nextRV())
	c.store.put(k, next)
	c.emitLocked(Added, k.gk, nil, next)
	return next, createdResult, nil
}

// validateCreate checks what the API server checks before it creates obj. It
// clears the namespace of cluster-scoped kinds, as the API server does.
func validateCreate(gk schema.GroupKind, obj Object) error {
	if obj.GetResourceVersion() != "" {
		return apierrors.NewBadRequest(fmt.Sprintf("%s %q: resourceVersion must not be set on create, got %q",
			gk.Kind, obj.GetName(), obj.GetResourceVersion()))
	}
	var errs field.ErrorList
	if obj.GetName() == "" && obj.GetGenerateName() == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), "name or generateName is required"))
	}
	switch {
	case clusterScoped[gk]:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"), "kind "+gk.Kind+" is namespaced"))
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(gk, nameForError(obj), errs)
	}
	return nil
}

// nameForError names obj in an error even before it has a name.
func nameForError(obj Object) string {
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		return obj.GetGenerateName() + "*"
	}
	return obj.GetName()
}

// generateNameLocked sets obj's name from generateName plus a derived suffix
// no object of the kind in the namespace has.
func (c *Cluster) generateNameLocked(gk schema.GroupKind, obj Object) error {
	for attempt := range nameAttempts {
		name := c.generateName(gk, obj, attempt)
		if _, taken := c.store.get(objKey{gk: gk, namespace: obj.GetNamespace(), name: name}); !taken {
			obj.SetName(name)
			return nil
		}
	}
	return apierrors.NewAlreadyExists(groupResource(gk), nameForError(obj))
}

// newUIDLocked returns a uid for obj that no stored object has. The first
// try succeeds unless an object of the same kind and name was created at the
// same instant before; the garbage collector relies on unique uids.
func (c *Cluster) newUIDLocked(gk schema.GroupKind, obj Object) (types.UID, error) {
	for attempt := range nameAttempts {
		uid := c.newUID(gk, obj, attempt)
		if _, taken := c.store.uids[uid]; !taken {
			return uid, nil
		}
	}
	return "", fmt.Errorf("no unused uid in %d attempts", nameAttempts)
}

func (c *Cluster) updateLocked(gvk schema.GroupVersionKind, obj Object) (Object, resultOrigin, error) {
	k, stored, err := c.lookupForWrite(gvk, obj)
	if err != nil {
		return nil, storedResult, err
	}
	next := copyObject(obj)
	keepServerFields(next, stored)
	if err := checkFinalizers(k, stored, next); err != nil {
		return nil, storedResult, err
	}
	if hasStatus(next) {
		copyStatus(next, stored)
	}
	changed := specChanged(next, stored)
	if !changed && !metaChanged(next, stored) {
		return stored, storedResult, nil
	}
	if !maps.Equal(next.GetLabels(), stored.GetLabels()) {
		if err := validateMeta(gvk.GroupKind(), next, false); err != nil {
			return nil, storedResult, err
		}
	}
	if err := c.admitUpdateLocked(gvk.GroupKind(), stored, next); err != nil {
		return nil, storedResult, err
	}
	if changed && HasGeneration(gvk.GroupKind()) {
		next.SetGeneration(stored.GetGeneration() + 1)
	}
	if err := checkStoredSize(gvk, next); err != nil {
		return nil, storedResult, err
	}
	return c.commitLocked(k, stored, next), storedResult, nil
}

func (c *Cluster) updateStatusLocked(gvk schema.GroupVersionKind, obj Object) (Object, resultOrigin, error) {
	if !hasStatus(obj) {
		return nil, storedResult, apierrors.NewBadRequest(fmt.Sprintf("%s %s/%s: kind %s has no status subresource",
			gvk.Kind, obj.GetNamespace(), obj.GetName(), gvk.Kind))
	}
	k, stored, err := c.lookupForWrite(gvk, obj)
	if err != nil {
		return nil, storedResult, err
	}
	if !statusChanged(obj, stored) {
		return stored, storedResult, nil
	}
	next := withStatusOf(stored, obj)
	if err := checkStoredSize(gvk, next); err != nil {
		return nil, storedResult, err
	}
	next.SetResourceVersion(c.nextRV())
	// Only the status changed: metadata and spec, and with them every
	// index entry, are those of the stored object.
	c.store.replace(k, next)
	c.emitLocked(Modified, k.gk, stored, next)
	return next, statusResult, nil
}

// lookupForWrite returns the stored object obj updates, and checks obj's
// resourceVersion and uid against it.
func (c *Cluster) lookupForWrite(gvk schema.GroupVersionKind, obj Object) (objKey, Object, error) {
	k := keyOf(gvk, obj)
	stored, ok := c.store.get(k)
	if !ok {
		return k, nil, notFound(k.gk, k.name)
	}
	rv := obj.GetResourceVersion()
	if rv == "" {
		return k, nil, apierrors.NewInvalid(k.gk, k.name, field.ErrorList{
			field.Required(field.NewPath("metadata", "resourceVersion"), "must be specified for an update")})
	}
	if rv != stored.GetResourceVersion() {
		return k, nil, apierrors.NewConflict(groupResource(k.gk), k.name, fmt.Errorf(
			"the object has been modified; please apply your changes to the latest version and try again (resourceVersion %s, stored %s)",
			rv, stored.GetResourceVersion()))
	}
	if uid := obj.GetUID(); uid != "" && uid != stored.GetUID() {
		return k, nil, apierrors.NewConflict(groupResource(k.gk), k.name, fmt.Errorf(
			"precondition failed: uid %s, stored object has uid %s", uid, stored.GetUID()))
	}
	return k, stored, nil
}

// keepServerFields copies the fields only the server may set from stored to
// next.
func keepServerFields(next, stored Object) {
	next.GetObjectKind().SetGroupVersionKind(stored.GetObjectKind().GroupVersionKind())
	next.SetNamespace(stored.GetNamespace())
	next.SetUID(stored.GetUID())
	next.SetResourceVersion(stored.GetResourceVersion())
	next.SetGeneration(stored.GetGeneration())
	next.SetCreationTimestamp(stored.GetCreationTimestamp())
	next.SetDeletionTimestamp(stored.GetDeletionTimestamp())
	next.SetDeletionGracePeriodSeconds(stored.GetDeletionGracePeriodSeconds())
}

// checkFinalizers rejects new finalizers on an object marked for deletion,
// as kube-apiserver does.
func checkFinalizers(k objKey, stored, next Object) error {
	if stored.GetDeletionTimestamp() == nil {
		return nil
	}
	old := map[string]bool{}
	for _, f := range stored.GetFinalizers() {
		old[f] = true
	}
	for _, f := range next.GetFinalizers() {
		if !old[f] {
			return apierrors.NewInvalid(k.gk, k.name, field.ErrorList{field.Forbidden(
				field.NewPath("metadata", "finalizers"),
				fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizer %q", f))})
		}
	}
	return nil
}

// commitLocked stores next in place of old under a new resourceVersion. If
// next is marked for deletion and has no finalizers left, it is removed
// instead, and its dependents are collected. It returns next.
func (c *Cluster) commitLocked(k objKey, old, next Object) Object {
	next.SetResourceVersion(c.nextRV())
	if next.GetDeletionTimestamp() != nil && len(next.GetFinalizers()) == 0 {
		c.store.remove(k)
		c.emitLocked(Deleted, k.gk, old, next)
		c.collectGarbageLocked(next.GetUID())
		return next
	}
	c.store.put(k, next)
	c.emitLocked(Modified, k.gk, old, next)
	return next
}

// nextRV advances the cluster-wide resourceVersion counter.
func (c *Cluster) nextRV() string {
	c.rv++
	return formatRV(c.rv)
}

func formatRV(rv uint64) string { return strconv.FormatUint(rv, 10) }

// timestamp returns the cluster time as the API server stores it: in UTC,
// truncated to seconds.
func (c *Cluster) timestamp() metav1.Time {
	return metav1.NewTime(c.now().UTC().Truncate(time.Second))
}
