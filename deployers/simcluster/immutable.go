package simcluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/lscli/lscli/internal/semantic"
)

// fieldImmutable is the detail of kube-apiserver's ValidateImmutableField,
// and immutableWhenSet that of a ConfigMap's or Secret's data while
// immutable is true.
const (
	fieldImmutable   = "field is immutable"
	immutableWhenSet = "field is immutable when `immutable` is set"
)

// validateImmutable refuses an update of the stored object old to obj, as
// defaulted and allocated, that changes a field kube-apiserver's update
// validation keeps (pkg/apis/{apps,batch,core,rbac,storage}/validation of
// Kubernetes v1.37): a workload's spec.selector, a StatefulSet's
// volumeClaimTemplates, serviceName and podManagementPolicy, a Job's
// template, completions (not Indexed), completionMode, podFailurePolicy,
// backoffLimitPerIndex, managedBy and successPolicy, a Service's cluster
// IPs, a PersistentVolumeClaim's spec (but for the storage request, and
// volumeAttributesClassName of a bound claim), the data and the flag of a
// ConfigMap or Secret whose immutable is true, a Secret's type, a role
// binding's roleRef, a StorageClass's provisioner, parameters,
// reclaimPolicy and volumeBindingMode, a CSIDriver's attachRequired and
// volumeLifecycleModes (csidriver.go), a PriorityClass's value and
// preemptionPolicy (priorityclass.go), a Pod's spec but for images and a
// few fields that may change in one direction (immutablePod). The error is the API server's: 422
// Invalid with the same message and causes (values rendered as it renders
// its internal types). Any write method comes here: an update, a patch, a
// server-side apply compare the stored object with the one to be stored,
// so a write that leaves such a field as it is (writing the same manifest
// again, a manifest without the defaults) passes.
func validateImmutable(old, obj runtime.Object) error {
	if old == nil {
		return nil
	}
	gvk, err := apiutil.GVKForObject(obj, builtin())
	if err != nil {
		return nil // a custom resource: no rules
	}
	rule := immutableRules[gvk]
	if rule == nil {
		return nil
	}
	if obj, err = asTyped(gvk, obj); err != nil {
		return nil
	}
	if old, err = asTyped(gvk, old); err != nil {
		return nil
	}
	errs := rule(obj, old)
	if len(errs) == 0 {
		return nil
	}
	name := ""
	if m, err := meta.Accessor(obj); err == nil {
		name = m.GetName()
	}
	return apierrors.NewInvalid(gvk.GroupKind(), name, errs)
}

// immutableRules are the fields kube-apiserver's update validation keeps,
// by the kind (and Go type) of the object, given the new object and the
// stored one (see validateImmutable).
var immutableRules = map[schema.GroupVersionKind]func(obj, old runtime.Object) field.ErrorList{
	appsv1.SchemeGroupVersion.WithKind("Deployment"): func(obj, old runtime.Object) field.ErrorList {
		return immutable(nil, obj.(*appsv1.Deployment).Spec.Selector, old.(*appsv1.Deployment).Spec.Selector, specPath.Child("selector"))
	},
	appsv1.SchemeGroupVersion.WithKind("ReplicaSet"): func(obj, old runtime.Object) field.ErrorList {
		return immutable(nil, obj.(*appsv1.ReplicaSet).Spec.Selector, old.(*appsv1.ReplicaSet).Spec.Selector, specPath.Child("selector"))
	},
	appsv1.SchemeGroupVersion.WithKind("DaemonSet"): func(obj, old runtime.Object) field.ErrorList {
		return immutable(nil, obj.(*appsv1.DaemonSet).Spec.Selector, old.(*appsv1.DaemonSet).Spec.Selector, specPath.Child("selector"))
	},
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"): func(obj, old runtime.Object) field.ErrorList {
		o, p := obj.(*appsv1.StatefulSet), old.(*appsv1.StatefulSet)
		errs := immutable(nil, o.Spec.Selector, p.Spec.Selector, specPath.Child("selector"))
		errs = immutable(errs, o.Spec.VolumeClaimTemplates, p.Spec.VolumeClaimTemplates, specPath.Child("volumeClaimTemplates"))
		errs = immutable(errs, o.Spec.ServiceName, p.Spec.ServiceName, specPath.Child("serviceName"))
		return immutable(errs, o.Spec.PodManagementPolicy, p.Spec.PodManagementPolicy, specPath.Child("podManagementPolicy"))
	},
	batchv1.SchemeGroupVersion.WithKind("Job"): func(obj, old runtime.Object) field.ErrorList {
		return immutableJob(obj.(*batchv1.Job), old.(*batchv1.Job))
	},
	corev1.SchemeGroupVersion.WithKind("Service"): func(obj, old runtime.Object) field.ErrorList {
		return immutableClusterIPs(obj.(*corev1.Service), old.(*corev1.Service))
	},
	corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"): func(obj, old runtime.Object) field.ErrorList {
		return immutableClaim(obj.(*corev1.PersistentVolumeClaim), old.(*corev1.PersistentVolumeClaim))
	},
	corev1.SchemeGroupVersion.WithKind("Pod"): func(obj, old runtime.Object) field.ErrorList {
		return immutablePod(obj.(*corev1.Pod), old.(*corev1.Pod))
	},
	corev1.SchemeGroupVersion.WithKind("ConfigMap"): func(obj, old runtime.Object) field.ErrorList {
		o, p := obj.(*corev1.ConfigMap), old.(*corev1.ConfigMap)
		if !isTrue(p.Immutable) {
			return nil
		}
		errs := forbidIfChanged(nil, isTrue(o.Immutable), true, field.NewPath("immutable"))
		errs = forbidIfChanged(errs, o.Data, p.Data, field.NewPath("data"))
		return forbidIfChanged(errs, o.BinaryData, p.BinaryData, field.NewPath("binaryData"))
	},
	corev1.SchemeGroupVersion.WithKind("Secret"): func(obj, old runtime.Object) field.ErrorList {
		o, p := obj.(*corev1.Secret), old.(*corev1.Secret)
		errs := immutable(nil, o.Type, p.Type, field.NewPath("type"))
		if isTrue(p.Immutable) {
			errs = forbidIfChanged(errs, isTrue(o.Immutable), true, field.NewPath("immutable"))
			errs = forbidIfChanged(errs, o.Data, p.Data, field.NewPath("data"))
		}
		return errs
	},
	rbacv1.SchemeGroupVersion.WithKind("RoleBinding"): func(obj, old runtime.Object) field.ErrorList {
		return immutable(nil, obj.(*rbacv1.RoleBinding).RoleRef, old.(*rbacv1.RoleBinding).RoleRef, field.NewPath("roleRef"))
	},
	rbacv1.SchemeGroupVersion.WithKind("ClusterRoleBinding"): func(obj, old runtime.Object) field.ErrorList {
		return immutable(nil, obj.(*rbacv1.ClusterRoleBinding).RoleRef, old.(*rbacv1.ClusterRoleBinding).RoleRef, field.NewPath("roleRef"))
	},
	storagev1.SchemeGroupVersion.WithKind("StorageClass"): func(obj, old runtime.Object) field.ErrorList {
		return immutableStorageClass(obj.(*storagev1.StorageClass), old.(*storagev1.StorageClass))
	},
	schedulingv1.SchemeGroupVersion.WithKind("PriorityClass"): func(obj, old runtime.Object) field.ErrorList {
		return immutablePriorityClass(obj.(*schedulingv1.PriorityClass), old.(*schedulingv1.PriorityClass))
	},
	storagev1.SchemeGroupVersion.WithKind("CSIDriver"): func(obj, old runtime.Object) field.ErrorList {
		return immutableCSIDriver(obj.(*storagev1.CSIDriver), old.(*storagev1.CSIDriver))
	},
}

// specPath is the path of an object's spec.
var specPath = field.NewPath("spec")

// asTyped returns obj as the Go type of gvk: itself, or converted from an
// unstructured object of a built-in kind.
func asTyped(gvk schema.GroupVersionKind, obj runtime.Object) (runtime.Object, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	typed, err := builtin().New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
		return nil, err
	}
	return typed, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

// immutable adds ValidateImmutableField's error when v differs from old:
// Invalid, with v as kube-apiserver renders its internal value.
func immutable(errs field.ErrorList, v, old any, path *field.Path) field.ErrorList {
	if semantic.DeepEqual(v, old) {
		return errs
	}
	return append(errs, field.Invalid(path, internalValue(v), fieldImmutable))
}

// forbidIfChanged adds the Forbidden error of a ConfigMap's or Secret's
// field while immutable is true.
func forbidIfChanged(errs field.ErrorList, v, old any, path *field.Path) field.ErrorList {
	if reflect.DeepEqual(v, old) {
		return errs
	}
	return append(errs, field.Forbidden(path, immutableWhenSet))
}

// immutableJob is ValidateJobSpecUpdate's part on what may not change.
func immutableJob(j, old *batchv1.Job) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion
	if !indexed {
		errs = immutable(errs, j.Spec.Completions, old.Spec.Completions, spec.Child("completions"))
	} else if !semantic.DeepEqual(j.Spec.Completions, old.Spec.Completions) && j.Spec.Completions != nil &&
		(j.Spec.Parallelism == nil || *j.Spec.Completions != *j.Spec.Parallelism) {
		errs = append(errs, field.Invalid(spec.Child("completions"), j.Spec.Completions, "can only be modified in tandem with spec.parallelism"))
	}
	errs = immutable(errs, j.Spec.Selector, old.Spec.Selector, spec.Child("selector"))
	// A suspended Job's template may change its scheduling directives and
	// resources; the simulated cluster keeps the rule of a running one
	// for the rest and lets a suspended Job's template change.
	if !isTrue(old.Spec.Suspend) {
		errs = immutable(errs, j.Spec.Template, old.Spec.Template, spec.Child("template"))
	}
	errs = immutable(errs, j.Spec.CompletionMode, old.Spec.CompletionMode, spec.Child("completionMode"))
	errs = immutable(errs, j.Spec.PodFailurePolicy, old.Spec.PodFailurePolicy, spec.Child("podFailurePolicy"))
	errs = immutable(errs, j.Spec.BackoffLimitPerIndex, old.Spec.BackoffLimitPerIndex, spec.Child("backoffLimitPerIndex"))
	errs = immutable(errs, j.Spec.ManagedBy, old.Spec.ManagedBy, spec.Child("managedBy"))
	errs = immutable(errs, j.Spec.SuccessPolicy, old.Spec.SuccessPolicy, spec.Child("successPolicy"))
	return errs
}

// immutableClusterIPs is validateUpgradeDowngradeClusterIPs: a Service's
// cluster IPs (after the stored ones filled what the write left out) may
// not change but from or to ExternalName, between headless forms, or by
// adding or releasing a secondary one.
func immutableClusterIPs(s, old *corev1.Service) field.ErrorList {
	if s.Spec.Type == corev1.ServiceTypeExternalName || old.Spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	headless := func(s *corev1.Service) bool {
		return len(s.Spec.ClusterIPs) > 0 && s.Spec.ClusterIPs[0] == corev1.ClusterIPNone
	}
	if headless(s) && headless(old) {
		return nil
	}
	path := field.NewPath("spec", "clusterIPs").Index(0)
	now, before := s.Spec.ClusterIPs, old.Spec.ClusterIPs
	var errs field.ErrorList
	switch {
	case len(before) == len(now):
		for i, ip := range before {
			if ip != now[i] {
				errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), now, "may not change once set"))
			}
		}
	case len(before) > len(now):
		if len(now) == 0 {
			errs = append(errs, field.Invalid(path, now, "primary clusterIP can not be unset"))
		} else if now[0] != before[0] {
			errs = append(errs, field.Invalid(path, now, "may not change once set"))
		}
	default:
		if len(before) > 0 && now[0] != before[0] {
			errs = append(errs, field.Invalid(path, now, "may not change once set"))
		}
	}
	return errs
}

// immutableClaim is ValidatePersistentVolumeClaimUpdate's part on what may
// not change: the spec but for volumeName while it is unset, the storage
// request and volumeAttributesClassName of a bound claim, and a
// storageClassName set where there was none (the API server's retroactive
// default storage class). The storage request may not shrink to the
// capacity or below; volumeMode may not change.
func immutableClaim(c, old *corev1.PersistentVolumeClaim) field.ErrorList {
	var errs field.ErrorList
	now, before := c.Spec.DeepCopy(), old.Spec.DeepCopy()
	if before.VolumeName == "" {
		before.VolumeName = now.VolumeName
	}
	if before.StorageClassName == nil && now.StorageClassName != nil &&
		old.Annotations[corev1.BetaStorageClassAnnotation] == "" {
		before.StorageClassName = now.StorageClassName
	}
	bound := old.Status.Phase == corev1.ClaimBound
	if bound && now.Resources.Requests != nil {
		now.Resources.Requests[corev1.ResourceStorage] = old.Spec.Resources.Requests[corev1.ResourceStorage]
	}
	if bound {
		now.VolumeAttributesClassName = before.VolumeAttributesClassName
	}
	if !semantic.DeepEqual(now, before) {
		d := diff.Diff(json.RawMessage(internalJSON(reflect.ValueOf(before).Elem())), json.RawMessage(internalJSON(reflect.ValueOf(now).Elem())))
		errs = append(errs, field.Forbidden(field.NewPath("spec"),
			"spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"+d))
	}
	newSize, oldSize := c.Spec.Resources.Requests[corev1.ResourceStorage], old.Spec.Resources.Requests[corev1.ResourceStorage]
	capacity := old.Status.Capacity[corev1.ResourceStorage]
	if newSize.Cmp(oldSize) < 0 && newSize.Cmp(capacity) <= 0 {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "resources", "requests", "storage"), "field can not be less than status.capacity"))
	}
	return immutable(errs, c.Spec.VolumeMode, old.Spec.VolumeMode, field.NewPath("volumeMode"))
}

// updatablePodSpecFields is how ValidatePodUpdate names the fields of a
// Pod's spec an update may change.
const updatablePodSpecFields = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// immutablePod is ValidatePodUpdate's part on what may not change in a
// Pod's spec: containers may not be added or removed, activeDeadlineSeconds
// may only be set or lowered, tolerations only added (or their seconds
// changed), scheduling gates only removed; anything else but the images
// is refused with a diff of the old and new spec (Forbidden spec). The
// nodeSelector and node affinity of a Pod with scheduling gates, which the
// API server lets grow, are let change without its checks. The client's
// image and whitespace checks are left to the rest of validation, which
// the simulated cluster does not do.
func immutablePod(p, old *corev1.Pod) field.ErrorList {
	spec := field.NewPath("spec")
	if len(p.Spec.Containers) != len(old.Spec.Containers) {
		return field.ErrorList{field.Forbidden(spec.Child("containers"), "pod updates may not add or remove containers")}
	}
	if len(p.Spec.InitContainers) != len(old.Spec.InitContainers) {
		return field.ErrorList{field.Forbidden(spec.Child("initContainers"), "pod updates may not add or remove containers")}
	}
	var errs field.ErrorList
	deadline := spec.Child("activeDeadlineSeconds")
	if now := p.Spec.ActiveDeadlineSeconds; now != nil {
		if *now < 0 || *now > math.MaxInt32 {
			return append(errs, field.Invalid(deadline, *now, validation.InclusiveRangeError(0, math.MaxInt32)))
		}
		if before := old.Spec.ActiveDeadlineSeconds; before != nil && *before < *now {
			return append(errs, field.Invalid(deadline, *now, "must be less than or equal to previous value"))
		}
	} else if old.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Invalid(deadline, p.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}
	for _, was := range old.Spec.Tolerations {
		found := false
		for _, t := range p.Spec.Tolerations {
			w := was
			w.TolerationSeconds = t.TolerationSeconds
			if reflect.DeepEqual(w, t) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, field.Forbidden(spec.Child("tolerations"), "existing toleration can not be modified except its tolerationSeconds"))
			break
		}
	}
	if len(p.Spec.SchedulingGates) > 0 {
		added := map[string]int{}
		for i, g := range p.Spec.SchedulingGates {
			added[g.Name] = i
		}
		for _, g := range old.Spec.SchedulingGates {
			delete(added, g.Name)
		}
		names := make([]string, 0, len(added))
		for n := range added {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			errs = append(errs, field.Forbidden(spec.Child("schedulingGates").Index(added[n]).Child("name"),
				fmt.Sprintf("only deletion is allowed, but found new scheduling gate '%s'", n)))
		}
	}
	if semantic.DeepEqual(p.Spec, old.Spec) {
		return errs
	}
	munged := p.Spec.DeepCopy()
	var containers, initContainers []corev1.Container
	for i, c := range munged.Containers {
		c.Image = old.Spec.Containers[i].Image
		containers = append(containers, c)
	}
	for i, c := range munged.InitContainers {
		c.Image = old.Spec.InitContainers[i].Image
		initContainers = append(initContainers, c)
	}
	munged.Containers, munged.InitContainers = containers, initContainers
	munged.ActiveDeadlineSeconds = old.Spec.ActiveDeadlineSeconds
	munged.SchedulingGates = old.Spec.SchedulingGates
	munged.Tolerations = old.Spec.Tolerations
	if g := old.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 &&
		munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = g
	}
	if len(old.Spec.SchedulingGates) > 0 {
		munged.NodeSelector = old.Spec.NodeSelector
		var nodeAffinity *corev1.NodeAffinity
		if old.Spec.Affinity != nil {
			nodeAffinity = old.Spec.Affinity.NodeAffinity
		}
		switch {
		case munged.Affinity == nil && nodeAffinity == nil:
		case munged.Affinity == nil:
			munged.Affinity = &corev1.Affinity{NodeAffinity: nodeAffinity}
		case old.Spec.Affinity == nil && munged.Affinity.PodAffinity == nil && munged.Affinity.PodAntiAffinity == nil:
			munged.Affinity = nil
		default:
			munged.Affinity.NodeAffinity = nodeAffinity
		}
	}
	if !semantic.DeepEqual(*munged, old.Spec) {
		d := diff.Diff(json.RawMessage(internalJSON(reflect.ValueOf(old.Spec))), json.RawMessage(internalJSON(reflect.ValueOf(*munged))))
		errs = append(errs, field.Forbidden(spec, "pod updates may not change fields other than "+updatablePodSpecFields+"\n"+d))
	}
	return errs
}

// immutableStorageClass is the declarative validation kube-apiserver runs
// for a StorageClass, which names no value.
func immutableStorageClass(sc, old *storagev1.StorageClass) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct {
		name     string
		now, was any
	}{
		{"provisioner", sc.Provisioner, old.Provisioner},
		{"parameters", sc.Parameters, old.Parameters},
		{"reclaimPolicy", sc.ReclaimPolicy, old.ReclaimPolicy},
		{"volumeBindingMode", sc.VolumeBindingMode, old.VolumeBindingMode},
	} {
		if !semantic.DeepEqual(f.now, f.was) {
			errs = append(errs, field.Invalid(field.NewPath(f.name), nil, fieldImmutable))
		}
	}
	return errs
}

// internalValue is v as kube-apiserver's field errors render it: the value
// of its internal type, whose structs have no JSON tags. Strings and
// numbers render as they are; a struct of k8s.io/api as JSON with Go field
// names.
func internalValue(v any) any {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.String()
	case reflect.Ptr:
		if !rv.IsNil() && rv.Elem().Kind() == reflect.Int32 {
			return int32(rv.Elem().Int())
		}
	}
	if !hasAPIStruct(rv.Type(), map[reflect.Type]bool{}) {
		return v
	}
	return json.RawMessage(internalJSON(rv))
}

// hasAPIStruct reports whether t holds a struct of a k8s.io/api package.
func hasAPIStruct(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array:
		return hasAPIStruct(t.Elem(), seen)
	case reflect.Map:
		return hasAPIStruct(t.Elem(), seen)
	case reflect.Struct:
		return strings.HasPrefix(t.PkgPath(), "k8s.io/api/")
	}
	return false
}

// internalJSON renders v as encoding/json renders the internal type of a
// k8s.io/api value: struct fields by their Go names, in order, none
// omitted, embedded ones inline; values of other packages (metadata,
// quantities, selectors) as they render themselves.
func internalJSON(v reflect.Value) []byte {
	var b bytes.Buffer
	writeInternal(&b, v)
	return b.Bytes()
}

func writeInternal(b *bytes.Buffer, v reflect.Value) {
	t := v.Type()
	switch {
	case t.Kind() == reflect.Ptr || t.Kind() == reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		writeInternal(b, v.Elem())
	case t.Kind() == reflect.Struct && strings.HasPrefix(t.PkgPath(), "k8s.io/api/"):
		b.WriteByte('{')
		first := true
		sep := func() {
			if !first {
				b.WriteByte(',')
			}
			first = false
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct && strings.HasPrefix(f.Type.PkgPath(), "k8s.io/api/") {
				// An embedded struct of the internal type (a volume's
				// source, a probe's handler) is inlined with its Go names.
				inner := internalJSON(v.Field(i))
				if len(inner) > 2 {
					sep()
					b.Write(inner[1 : len(inner)-1])
				}
				continue
			}
			if f.Anonymous {
				raw, _ := json.Marshal(v.Field(i).Interface())
				if inner := bytes.TrimSpace(raw); len(inner) > 2 {
					sep()
					b.Write(inner[1 : len(inner)-1])
				}
				continue
			}
			sep()
			name, _ := json.Marshal(f.Name)
			b.Write(name)
			b.WriteByte(':')
			writeInternal(b, v.Field(i))
		}
		b.WriteByte('}')
	case t.Kind() == reflect.Slice && hasAPIStruct(t, map[reflect.Type]bool{}):
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			writeInternal(b, v.Index(i))
		}
		b.WriteByte(']')
	case t.Kind() == reflect.Map && hasAPIStruct(t, map[reflect.Type]bool{}):
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(fmt.Sprint(k))
			b.Write(name)
			b.WriteByte(':')
			writeInternal(b, v.MapIndex(k))
		}
		b.WriteByte('}')
	default:
		raw, err := json.Marshal(v.Interface())
		if err != nil {
			raw = []byte("null")
		}
		b.Write(raw)
	}
}

var storageClassesResource = storagev1.SchemeGroupVersion.WithResource("storageclasses")

// validateUpdate checks an update of the stored object old to obj as
// kube-apiserver's validation (validateImmutable) and then its
// PersistentVolumeClaimResize admission do: a claim's storage request may
// grow only when the claim is bound and its StorageClass, the same before
// and after, allows volume expansion (403 Forbidden).
func (t *tracker) validateUpdate(old, obj runtime.Object) error {
	if err := validateImmutable(old, obj); err != nil || old == nil {
		return err
	}
	c, ok := obj.(*corev1.PersistentVolumeClaim)
	if !ok {
		return nil
	}
	prev, ok := old.(*corev1.PersistentVolumeClaim)
	if !ok {
		return nil
	}
	newSize, oldSize := c.Spec.Resources.Requests[corev1.ResourceStorage], prev.Spec.Resources.Requests[corev1.ResourceStorage]
	if newSize.Cmp(oldSize) <= 0 {
		return nil
	}
	forbidden := func(msg string) error {
		return apierrors.NewForbidden(corev1.Resource("persistentvolumeclaims"), c.Name, errors.New(msg))
	}
	if prev.Status.Phase != corev1.ClaimBound {
		return forbidden("Only bound persistent volume claims can be expanded")
	}
	class, oldClass := claimClass(c), claimClass(prev)
	if class != "" && class == oldClass {
		if sc, err := t.ObjectTracker.Get(storageClassesResource, "", class); err == nil {
			if s, ok := sc.(*storagev1.StorageClass); ok && isTrue(s.AllowVolumeExpansion) {
				return nil
			}
		}
	}
	return forbidden("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize")
}

// claimClass is the StorageClass of a claim: its beta annotation, else
// spec.storageClassName.
func claimClass(c *corev1.PersistentVolumeClaim) string {
	if class, ok := c.Annotations[corev1.BetaStorageClassAnnotation]; ok {
		return class
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}
