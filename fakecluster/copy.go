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
		out := &lsv1alpha1.DataObject{TypeMeta: o.TypeMeta, Data: o.Data}
		o.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
		return out
	case *lsv1alpha1.Target:
		return copyTarget(o)
	}
	return obj.DeepCopyObject().(Object)
}

// copyInstallation copies in, sharing the raw JSON of an inline blueprint.
func copyInstallation(in *lsv1alpha1.Installation) *lsv1alpha1.Installation {
	out := &lsv1alpha1.Installation{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.DeepCopyInto(&out.Status)
	spec := in.Spec // a shallow copy, only read
	inline := spec.Blueprint.Inline
	spec.Blueprint.Inline = nil
	spec.DeepCopyInto(&out.Spec)
	if inline != nil {
		out.Spec.Blueprint.Inline = &lsv1alpha1.InlineBlueprint{Filesystem: inline.Filesystem}
	}
	return out
}

// copyTarget copies in, sharing the raw JSON of its configuration.
func copyTarget(in *lsv1alpha1.Target) *lsv1alpha1.Target {
	out := &lsv1alpha1.Target{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	spec := in.Spec
	config := spec.Configuration
	spec.Configuration = nil
	spec.DeepCopyInto(&out.Spec)
	if config != nil {
		shared := *config
		out.Spec.Configuration = &shared
	}
	return out
}

// withLandscaperStatus is withStatusOf for the Landscaper kinds a simulation
// updates most, without reflection. The new object shares stored's metadata
// and spec: the store never changes a stored object in place, and writes
// set only top-level fields of the metadata (resourceVersion). ok is false
// for other kinds.
func withLandscaperStatus(stored, src Object) (next Object, ok bool) {
	switch s := stored.(type) {
	case *lsv1alpha1.Installation:
		n := *s
		src.(*lsv1alpha1.Installation).Status.DeepCopyInto(&n.Status)
		return &n, true
	case *lsv1alpha1.Execution:
		n := *s
		src.(*lsv1alpha1.Execution).Status.DeepCopyInto(&n.Status)
		return &n, true
	case *lsv1alpha1.DeployItem:
		n := *s
		src.(*lsv1alpha1.DeployItem).Status.DeepCopyInto(&n.Status)
		return &n, true
	}
	return nil, false
}
