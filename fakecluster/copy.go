package fakecluster

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// copyObject returns a deep copy of obj, except that the raw JSON of
// AnyJSON fields that can be large (inline blueprints, DataObject data,
// Target configurations) is shared between the copies: every object the
// cluster hands out or stores is a copy, and copying kilobytes of blueprint
// on every read and write was a fifth of a big run's allocations.
//
// Sharing is safe because nothing changes those bytes in place: code
// replaces the slice, and AnyJSON.UnmarshalJSON decodes into a new one.
// (runtime.RawExtension.UnmarshalJSON reuses its slice, so its fields, such
// as deploy item configurations, are copied.)
func copyObject(obj Object) Object {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		return copyInstallation(o)
	case *lsv1alpha1.DataObject:
		out := &lsv1alpha1.DataObject{}
		copyDataObjectInto(out, o)
		return out
	case *lsv1alpha1.Target:
		return copyTarget(o)
	}
	return obj.DeepCopyObject().(Object)
}

// copyObjectInto deep-copies src into dst, as copyInto(dst, copyObject(src))
// does, but without the intermediate object for the kinds the controllers
// read and write most. A type mismatch is an error.
func copyObjectInto(dst, src Object) error {
	if copyAs[lsv1alpha1.Installation](dst, src, copyInstallationInto) ||
		copyAs[lsv1alpha1.Execution](dst, src, copyExecutionInto) ||
		copyAs[lsv1alpha1.DeployItem](dst, src, copyDeployItemInto) ||
		copyAs[lsv1alpha1.DataObject](dst, src, copyDataObjectInto) ||
		copyAs[lsv1alpha1.Target](dst, src, copyTargetInto) {
		return nil
	}
	return copyInto(dst, copyObject(src))
}

// copyAs copies src into dst with copyInto when both are *T (dst not nil),
// and reports whether it did.
func copyAs[T any, P interface {
	*T
	Object
}](dst, src Object, copyInto func(out, in *T)) bool {
	d, ok := dst.(P)
	if !ok || d == nil {
		return false
	}
	s, ok := src.(P)
	if ok {
		copyInto(d, s)
	}
	return ok
}

// copyExecutionInto is a deep copy of in into out.
func copyExecutionInto(out, in *lsv1alpha1.Execution) { in.DeepCopyInto(out) }

// copyDeployItemInto is a deep copy of in into out.
func copyDeployItemInto(out, in *lsv1alpha1.DeployItem) { in.DeepCopyInto(out) }

// copyInstallation copies in, sharing the raw JSON of an inline blueprint.
func copyInstallation(in *lsv1alpha1.Installation) *lsv1alpha1.Installation {
	out := &lsv1alpha1.Installation{}
	copyInstallationInto(out, in)
	return out
}

// copyInstallationInto is copyInstallation into out.
func copyInstallationInto(out, in *lsv1alpha1.Installation) {
	*out = lsv1alpha1.Installation{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.DeepCopyInto(&out.Status)
	spec := in.Spec // a shallow copy, only read
	inline := spec.Blueprint.Inline
	spec.Blueprint.Inline = nil
	spec.DeepCopyInto(&out.Spec)
	if inline != nil {
		out.Spec.Blueprint.Inline = &lsv1alpha1.InlineBlueprint{Filesystem: inline.Filesystem}
	}
}

// copyDataObjectInto copies in into out, sharing the raw JSON of its data.
func copyDataObjectInto(out, in *lsv1alpha1.DataObject) {
	*out = lsv1alpha1.DataObject{TypeMeta: in.TypeMeta, Data: in.Data}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

// copyTarget copies in, sharing the raw JSON of its configuration.
func copyTarget(in *lsv1alpha1.Target) *lsv1alpha1.Target {
	out := &lsv1alpha1.Target{}
	copyTargetInto(out, in)
	return out
}

// copyTargetInto is copyTarget into out.
func copyTargetInto(out, in *lsv1alpha1.Target) {
	*out = lsv1alpha1.Target{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	spec := in.Spec
	config := spec.Configuration
	spec.Configuration = nil
	spec.DeepCopyInto(&out.Spec)
	if config != nil {
		shared := *config
		out.Spec.Configuration = &shared
	}
}

// setListItems sets the items of list, for the list kinds the controllers
// read most, to copies of found (as copyObject copies), without the
// reflection of meta.SetList; with shallow, to shallow copies, which share
// everything below their top-level fields with the stored objects (see
// ListUnsafe). It reports false, changing nothing, for other kinds of list.
func setListItems(list ObjectList, found []Object, shallow bool) bool {
	switch l := list.(type) {
	case *lsv1alpha1.InstallationList:
		l.Items = fillItems(found, shallow, copyInstallationInto)
	case *lsv1alpha1.ExecutionList:
		l.Items = fillItems(found, shallow, copyExecutionInto)
	case *lsv1alpha1.DeployItemList:
		l.Items = fillItems(found, shallow, copyDeployItemInto)
	case *lsv1alpha1.DataObjectList:
		l.Items = fillItems(found, shallow, copyDataObjectInto)
	case *lsv1alpha1.TargetList:
		l.Items = fillItems(found, shallow, copyTargetInto)
	default:
		return false
	}
	return true
}

// fillItems returns a slice of the objects found, each copied into its
// element by copyInto, or with shallow by assignment.
func fillItems[T any](found []Object, shallow bool, copyInto func(out, in *T)) []T {
	items := make([]T, len(found))
	for i, obj := range found {
		if shallow {
			items[i] = *any(obj).(*T)
			continue
		}
		copyInto(&items[i], any(obj).(*T))
	}
	return items
}

// withLandscaperStatus is withStatusOf for the Landscaper kinds a simulation
// updates most, without reflection. The new object shares stored's metadata
// and spec: the store never changes a stored object in place, and writes
// set only top-level fields of the metadata (resourceVersion). Its status
// is a copy of src's that shares what did not change with stored's (see
// statusSharer). ok is false for other kinds.
func withLandscaperStatus(stored, src Object) (next Object, ok bool) {
	switch s := stored.(type) {
	case *lsv1alpha1.Installation:
		n := *s
		installationStatuses.copyInto(&n.Status, &s.Status, &src.(*lsv1alpha1.Installation).Status,
			(*lsv1alpha1.InstallationStatus).DeepCopyInto)
		return &n, true
	case *lsv1alpha1.Execution:
		n := *s
		executionStatuses.copyInto(&n.Status, &s.Status, &src.(*lsv1alpha1.Execution).Status,
			(*lsv1alpha1.ExecutionStatus).DeepCopyInto)
		return &n, true
	case *lsv1alpha1.DeployItem:
		n := *s
		deployItemStatuses.copyInto(&n.Status, &s.Status, &src.(*lsv1alpha1.DeployItem).Status,
			(*lsv1alpha1.DeployItemStatus).DeepCopyInto)
		return &n, true
	}
	return nil, false
}

// The statusSharers of the kinds withLandscaperStatus copies.
var (
	installationStatuses = newStatusSharer[lsv1alpha1.InstallationStatus]()
	executionStatuses    = newStatusSharer[lsv1alpha1.ExecutionStatus]()
	deployItemStatuses   = newStatusSharer[lsv1alpha1.DeployItemStatus]()
)
