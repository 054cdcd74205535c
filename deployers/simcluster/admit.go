package simcluster

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// admit does to an object being stored what a real API server's
// conversion and defaulting do where deployed charts and readiness checks
// notice: a Secret's stringData is merged into data (stringData wins) and
// dropped, and its type is Opaque when unset; a Namespace gets the label kubernetes.io/metadata.name, the
// finalizer "kubernetes" in spec.finalizers and phase Active; the workload
// kinds (Deployment, StatefulSet, DaemonSet, ReplicaSet,
// ReplicationController, Job, CronJob, Pod) get the API server's defaults,
// their pod templates included (defaults.go): spec.replicas 1 when unset
// (charts leave it out when an autoscaler owns it), imagePullPolicy,
// restartPolicy and so on; Services, PersistentVolumeClaims,
// PersistentVolumes, NetworkPolicies, IngressClasses, StorageClasses,
// HorizontalPodAutoscalers (v2), role bindings, CRDs, webhook
// configurations, PriorityClasses, Endpoints, EndpointSlices,
// ResourceQuotas and LimitRanges get theirs (defaults_kinds.go).
func admit(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Secret:
		mergeStringData(o)
		if o.Type == "" {
			o.Type = corev1.SecretTypeOpaque
		}
	case *corev1.Namespace:
		defaultNamespace(o)
	case *appsv1.Deployment:
		defaultDeployment(o)
	case *appsv1.StatefulSet:
		defaultStatefulSet(o)
	case *appsv1.DaemonSet:
		defaultDaemonSet(o)
	case *appsv1.ReplicaSet:
		defaultReplicaSet(o)
	case *corev1.ReplicationController:
		defaultReplicationController(o)
	case *batchv1.Job:
		defaultJob(o)
	case *batchv1.CronJob:
		defaultCronJob(o)
	case *corev1.Pod:
		defaultPod(o)
	case *corev1.Service:
		defaultService(o)
	case *corev1.PersistentVolumeClaim:
		defaultPVC(o)
	case *corev1.PersistentVolume:
		defaultPV(o)
	case *networkingv1.NetworkPolicy:
		defaultNetworkPolicy(o)
	case *networkingv1.IngressClass:
		defaultIngressClass(o)
	case *storagev1.StorageClass:
		defaultStorageClass(o)
	case *autoscalingv2.HorizontalPodAutoscaler:
		defaultHPA(o)
	case *autoscalingv1.HorizontalPodAutoscaler:
		decodeHPAv1(o) // hpaconversion.go
	case *rbacv1.RoleBinding:
		defaultBinding(&o.RoleRef, o.Subjects)
	case *rbacv1.ClusterRoleBinding:
		defaultBinding(&o.RoleRef, o.Subjects)
	case *apiextensionsv1.CustomResourceDefinition:
		defaultCRD(o)
	case *admissionregistrationv1.ValidatingWebhookConfiguration:
		defaultValidatingWebhooks(o)
	case *admissionregistrationv1.MutatingWebhookConfiguration:
		defaultMutatingWebhooks(o)
	case *schedulingv1.PriorityClass:
		setIfNil(&o.PreemptionPolicy, corev1.PreemptLowerPriority)
	case *corev1.Endpoints:
		defaultEndpoints(o)
	case *discoveryv1.EndpointSlice:
		defaultEndpointSlice(o)
	case *corev1.ResourceQuota:
		roundUp(o.Spec.Hard)
		roundUp(o.Status.Hard)
		roundUp(o.Status.Used)
	case *corev1.LimitRange:
		defaultLimitRange(o)
	case *unstructured.Unstructured:
		admitUnstructured(o)
	}
}

// defaultReplicas sets *r to 1 when it is unset.
func defaultReplicas(r **int32) {
	if *r == nil {
		one := int32(1)
		*r = &one
	}
}

// mergeStringData moves stringData into data.
func mergeStringData(s *corev1.Secret) {
	if len(s.StringData) == 0 {
		s.StringData = nil
		return
	}
	if s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}

// defaultNamespace sets what the API server sets on every Namespace.
func defaultNamespace(ns *corev1.Namespace) {
	labels := ns.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[corev1.LabelMetadataName] = ns.Name
	ns.SetLabels(labels)
	if len(ns.Spec.Finalizers) == 0 {
		ns.Spec.Finalizers = []corev1.FinalizerName{corev1.FinalizerKubernetes}
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = corev1.NamespaceActive
	}
}

// typedKinds are the built-in kinds admit handles, with their Go types
// (for objects that reach the store unstructured); decoded tells those
// that kube-apiserver changes when it decodes them (see beforeManager).
var typedKinds = map[schema.GroupVersionKind]struct {
	new     func() runtime.Object
	decoded bool
}{
	corev1.SchemeGroupVersion.WithKind("Secret"):                            {func() runtime.Object { return &corev1.Secret{} }, true},
	corev1.SchemeGroupVersion.WithKind("Namespace"):                         {func() runtime.Object { return &corev1.Namespace{} }, false},
	appsv1.SchemeGroupVersion.WithKind("Deployment"):                        {func() runtime.Object { return &appsv1.Deployment{} }, true},
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"):                       {func() runtime.Object { return &appsv1.StatefulSet{} }, true},
	appsv1.SchemeGroupVersion.WithKind("DaemonSet"):                         {func() runtime.Object { return &appsv1.DaemonSet{} }, true},
	appsv1.SchemeGroupVersion.WithKind("ReplicaSet"):                        {func() runtime.Object { return &appsv1.ReplicaSet{} }, true},
	corev1.SchemeGroupVersion.WithKind("ReplicationController"):             {func() runtime.Object { return &corev1.ReplicationController{} }, true},
	batchv1.SchemeGroupVersion.WithKind("Job"):                              {func() runtime.Object { return &batchv1.Job{} }, true},
	batchv1.SchemeGroupVersion.WithKind("CronJob"):                          {func() runtime.Object { return &batchv1.CronJob{} }, true},
	corev1.SchemeGroupVersion.WithKind("Pod"):                               {func() runtime.Object { return &corev1.Pod{} }, true},
	corev1.SchemeGroupVersion.WithKind("Service"):                           {func() runtime.Object { return &corev1.Service{} }, true},
	corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"):             {func() runtime.Object { return &corev1.PersistentVolumeClaim{} }, true},
	corev1.SchemeGroupVersion.WithKind("PersistentVolume"):                  {func() runtime.Object { return &corev1.PersistentVolume{} }, true},
	networkingv1.SchemeGroupVersion.WithKind("NetworkPolicy"):               {func() runtime.Object { return &networkingv1.NetworkPolicy{} }, true},
	networkingv1.SchemeGroupVersion.WithKind("IngressClass"):                {func() runtime.Object { return &networkingv1.IngressClass{} }, true},
	storagev1.SchemeGroupVersion.WithKind("StorageClass"):                   {func() runtime.Object { return &storagev1.StorageClass{} }, true},
	autoscalingv2.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"):    {func() runtime.Object { return &autoscalingv2.HorizontalPodAutoscaler{} }, true},
	autoscalingv1.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"):    {func() runtime.Object { return &autoscalingv1.HorizontalPodAutoscaler{} }, true},
	rbacv1.SchemeGroupVersion.WithKind("RoleBinding"):                       {func() runtime.Object { return &rbacv1.RoleBinding{} }, true},
	rbacv1.SchemeGroupVersion.WithKind("ClusterRoleBinding"):                {func() runtime.Object { return &rbacv1.ClusterRoleBinding{} }, true},
	apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"): {func() runtime.Object { return &apiextensionsv1.CustomResourceDefinition{} }, true},
	admissionregistrationv1.SchemeGroupVersion.WithKind("ValidatingWebhookConfiguration"): {func() runtime.Object {
		return &admissionregistrationv1.ValidatingWebhookConfiguration{}
	}, true},
	admissionregistrationv1.SchemeGroupVersion.WithKind("MutatingWebhookConfiguration"): {func() runtime.Object {
		return &admissionregistrationv1.MutatingWebhookConfiguration{}
	}, true},
	schedulingv1.SchemeGroupVersion.WithKind("PriorityClass"): {func() runtime.Object { return &schedulingv1.PriorityClass{} }, true},
	corev1.SchemeGroupVersion.WithKind("Endpoints"):           {func() runtime.Object { return &corev1.Endpoints{} }, true},
	discoveryv1.SchemeGroupVersion.WithKind("EndpointSlice"):  {func() runtime.Object { return &discoveryv1.EndpointSlice{} }, true},
	corev1.SchemeGroupVersion.WithKind("ResourceQuota"):       {func() runtime.Object { return &corev1.ResourceQuota{} }, true},
	corev1.SchemeGroupVersion.WithKind("LimitRange"):          {func() runtime.Object { return &corev1.LimitRange{} }, true},
}

// beforeManager admits obj, of kind gvk, when kube-apiserver changes it
// when it decodes it (converting a Secret's stringData, defaulting the
// workload kinds), before its field manager records who wrote what: a
// create's or update's manager then owns what was changed (an apply's does
// not: the object is defaulted after the merge, by admit in stamp).
func beforeManager(gvk schema.GroupVersionKind, obj runtime.Object) {
	if typedKinds[gvk].decoded {
		admit(obj)
	}
}

// admitUnstructured admits a built-in kind that reached the store
// unstructured, through its Go type.
func admitUnstructured(u *unstructured.Unstructured) {
	_ = changeAsTyped(u, func(typed runtime.Object) error {
		admit(typed)
		return nil
	})
}

// changeAsTyped runs change on u, a built-in kind that reached the store
// unstructured, as its Go type, and writes what change did back into u.
// u is left alone when its kind is not one of typedKinds or does not
// convert, and when change fails.
func changeAsTyped(u *unstructured.Unstructured, change func(typed runtime.Object) error) error {
	k, ok := typedKinds[u.GroupVersionKind()]
	if !ok {
		return nil
	}
	typed := k.new()
	if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed) != nil {
		return nil
	}
	if err := change(typed); err != nil {
		return err
	}
	if m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed); err == nil {
		gvk := u.GroupVersionKind()
		u.Object = m
		u.SetGroupVersionKind(gvk)
	}
	return nil
}
