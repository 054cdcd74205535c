package simcluster

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// This file sets what kube-apiserver's defaulting sets on the kinds other
// than the workloads (SetObjectDefaults_* of k8s.io/kubernetes
// pkg/apis/core/v1, networking/v1, storage/v1, autoscaling/v2, rbac/v1,
// admissionregistration/v1, scheduling/v1, discovery/v1 and of
// apiextensions-apiserver's v1). What a Service's and a Job's registry add
// when they are stored (cluster IPs, node ports, IP families, the Job's
// selector) is in apiserver.go.

// defaultService is SetObjectDefaults_Service.
func defaultService(s *corev1.Service) {
	spec := &s.Spec
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = corev1.ServiceAffinityNone
	}
	if spec.SessionAffinity == corev1.ServiceAffinityNone {
		spec.SessionAffinityConfig = nil
	}
	if spec.SessionAffinity == corev1.ServiceAffinityClientIP {
		if c := spec.SessionAffinityConfig; c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{
				TimeoutSeconds: ptr.To(corev1.DefaultClientIPServiceAffinitySeconds)}}
		}
	}
	if spec.Type == "" {
		spec.Type = corev1.ServiceTypeClusterIP
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if externallyAccessible(s) && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	switch spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
		setIfNil(&spec.InternalTrafficPolicy, corev1.ServiceInternalTrafficPolicyCluster)
	}
	if spec.Type == corev1.ServiceTypeLoadBalancer {
		setIfNil(&spec.AllocateLoadBalancerNodePorts, true)
		for i := range s.Status.LoadBalancer.Ingress {
			if ing := &s.Status.LoadBalancer.Ingress[i]; ing.IP != "" && ing.IPMode == nil {
				ing.IPMode = ptr.To(corev1.LoadBalancerIPModeVIP)
			}
		}
	}
}

// externallyAccessible reports whether traffic from outside the cluster
// reaches s: a LoadBalancer or NodePort Service, or a ClusterIP one with
// external IPs.
func externallyAccessible(s *corev1.Service) bool {
	t := s.Spec.Type
	return t == corev1.ServiceTypeLoadBalancer || t == corev1.ServiceTypeNodePort ||
		t == corev1.ServiceTypeClusterIP && len(s.Spec.ExternalIPs) > 0
}

// defaultPVC is SetObjectDefaults_PersistentVolumeClaim: phase Pending,
// volume mode Filesystem, quantities rounded up.
func defaultPVC(c *corev1.PersistentVolumeClaim) {
	if c.Status.Phase == "" {
		c.Status.Phase = corev1.ClaimPending
	}
	defaultClaimSpec(&c.Spec)
	roundUp(c.Status.Capacity)
	roundUp(c.Status.AllocatedResources)
}

// defaultPV is SetObjectDefaults_PersistentVolume: phase Pending, reclaim
// policy Retain, volume mode Filesystem, and its source's defaults.
func defaultPV(v *corev1.PersistentVolume) {
	if v.Status.Phase == "" {
		v.Status.Phase = corev1.VolumePending
	}
	if v.Spec.PersistentVolumeReclaimPolicy == "" {
		v.Spec.PersistentVolumeReclaimPolicy = corev1.PersistentVolumeReclaimRetain
	}
	setIfNil(&v.Spec.VolumeMode, corev1.PersistentVolumeFilesystem)
	roundUp(v.Spec.Capacity)
	src := &v.Spec.PersistentVolumeSource
	if src.HostPath != nil {
		setIfNil(&src.HostPath.Type, corev1.HostPathUnset)
	}
	if r := src.RBD; r != nil {
		for f, d := range map[*string]string{&r.RBDPool: "rbd", &r.RadosUser: "admin", &r.Keyring: "/etc/ceph/keyring"} {
			if *f == "" {
				*f = d
			}
		}
	}
	if s := src.ISCSI; s != nil && s.ISCSIInterface == "" {
		s.ISCSIInterface = "default"
	}
	defaultAzureDisk(src.AzureDisk)
	if s := src.ScaleIO; s != nil {
		defaultScaleIO(&s.StorageMode, &s.FSType)
	}
}

// defaultNetworkPolicy is SetObjectDefaults_NetworkPolicy: policyTypes
// Ingress (and Egress when it has egress rules), ports' protocol TCP.
func defaultNetworkPolicy(n *networkingv1.NetworkPolicy) {
	if len(n.Spec.PolicyTypes) == 0 {
		n.Spec.PolicyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}
		if len(n.Spec.Egress) != 0 {
			n.Spec.PolicyTypes = append(n.Spec.PolicyTypes, networkingv1.PolicyTypeEgress)
		}
	}
	for i := range n.Spec.Ingress {
		defaultPolicyPorts(n.Spec.Ingress[i].Ports)
	}
	for i := range n.Spec.Egress {
		defaultPolicyPorts(n.Spec.Egress[i].Ports)
	}
}

// defaultPolicyPorts gives ports without a protocol TCP.
func defaultPolicyPorts(ports []networkingv1.NetworkPolicyPort) {
	for i := range ports {
		setIfNil(&ports[i].Protocol, corev1.ProtocolTCP)
	}
}

// defaultIngressClass is SetObjectDefaults_IngressClass: parameters are
// cluster-scoped when no scope is given.
func defaultIngressClass(c *networkingv1.IngressClass) {
	if p := c.Spec.Parameters; p != nil {
		setIfNil(&p.Scope, networkingv1.IngressClassParametersReferenceScopeCluster)
	}
}

// defaultStorageClass is SetObjectDefaults_StorageClass: reclaim policy
// Delete, volume binding mode Immediate.
func defaultStorageClass(c *storagev1.StorageClass) {
	setIfNil(&c.ReclaimPolicy, corev1.PersistentVolumeReclaimDelete)
	setIfNil(&c.VolumeBindingMode, storagev1.VolumeBindingImmediate)
}

// defaultHPA is SetObjectDefaults_HorizontalPodAutoscaler (v2):
// minReplicas 1, a CPU utilization target of 80% when there are no metrics,
// and a behavior's rules completed with the default rules; without the
// annotations of v1 reads, as v2's conversion drops them
// (hpaconversion.go).
func defaultHPA(h *autoscalingv2.HorizontalPodAutoscaler) {
	h.Annotations = dropHPARoundTripAnnotations(h.Annotations)
	setIfNil(&h.Spec.MinReplicas, 1)
	if len(h.Spec.Metrics) == 0 {
		h.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{
				Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To[int32](80)}}}}
	}
	if b := h.Spec.Behavior; b != nil {
		up := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr.To[int32](0),
			SelectPolicy: ptr.To(autoscalingv2.MaxChangePolicySelect), Policies: []autoscalingv2.HPAScalingPolicy{
				{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
				{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}}
		down := &autoscalingv2.HPAScalingRules{SelectPolicy: ptr.To(autoscalingv2.MaxChangePolicySelect),
			Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}}
		b.ScaleUp, b.ScaleDown = scalingRules(b.ScaleUp, up), scalingRules(b.ScaleDown, down)
	}
}

// scalingRules is the default rules def with what from sets.
func scalingRules(from, def *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if from == nil {
		return def
	}
	if from.SelectPolicy != nil {
		def.SelectPolicy = from.SelectPolicy
	}
	if from.StabilizationWindowSeconds != nil {
		def.StabilizationWindowSeconds = from.StabilizationWindowSeconds
	}
	if from.Policies != nil {
		def.Policies = from.Policies
	}
	if from.Tolerance != nil {
		def.Tolerance = from.Tolerance
	}
	return def
}

// defaultBinding is SetObjectDefaults_RoleBinding and
// SetObjectDefaults_ClusterRoleBinding: the role's API group and that of
// User and Group subjects is rbac.authorization.k8s.io.
func defaultBinding(ref *rbacv1.RoleRef, subjects []rbacv1.Subject) {
	if ref.APIGroup == "" {
		ref.APIGroup = rbacv1.GroupName
	}
	for i := range subjects {
		if s := &subjects[i]; s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}

// defaultCRD is SetObjectDefaults_CustomResourceDefinition: the singular
// and list kind names, conversion strategy None, a conversion webhook's
// service port 443. (It also puts the storage version in
// status.storedVersions, which the CRD registry resets and sets again and
// the creator does not own; the fake controller sets it, fillCRD.)
func defaultCRD(c *apiextensionsv1.CustomResourceDefinition) {
	n := &c.Spec.Names
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
	if c.Spec.Conversion == nil {
		c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	}
	if w := c.Spec.Conversion.Webhook; w != nil && w.ClientConfig != nil && w.ClientConfig.Service != nil {
		setIfNil(&w.ClientConfig.Service.Port, 443)
	}
}

// defaultWebhook is SetDefaults_ValidatingWebhook (and, with the
// reinvocation policy, SetDefaults_MutatingWebhook) with its service's
// port and its rules' scope: failure policy Fail, match policy
// Equivalent, empty namespace and object selectors, a 10 s timeout.
func defaultWebhook(failure **admissionregistrationv1.FailurePolicyType, match **admissionregistrationv1.MatchPolicyType,
	nsSel, objSel **metav1.LabelSelector, timeout **int32, cfg *admissionregistrationv1.WebhookClientConfig,
	rules []admissionregistrationv1.RuleWithOperations) {
	setIfNil(failure, admissionregistrationv1.Fail)
	setIfNil(match, admissionregistrationv1.Equivalent)
	setIfNil(nsSel, metav1.LabelSelector{})
	setIfNil(objSel, metav1.LabelSelector{})
	setIfNil(timeout, 10)
	if cfg.Service != nil {
		setIfNil(&cfg.Service.Port, 443)
	}
	for i := range rules {
		setIfNil(&rules[i].Scope, admissionregistrationv1.AllScopes)
	}
}

// defaultValidatingWebhooks is SetObjectDefaults_ValidatingWebhookConfiguration.
func defaultValidatingWebhooks(c *admissionregistrationv1.ValidatingWebhookConfiguration) {
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		defaultWebhook(&w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector, &w.ObjectSelector, &w.TimeoutSeconds, &w.ClientConfig, w.Rules)
	}
}

// defaultMutatingWebhooks is SetObjectDefaults_MutatingWebhookConfiguration.
func defaultMutatingWebhooks(c *admissionregistrationv1.MutatingWebhookConfiguration) {
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		defaultWebhook(&w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector, &w.ObjectSelector, &w.TimeoutSeconds, &w.ClientConfig, w.Rules)
		setIfNil(&w.ReinvocationPolicy, admissionregistrationv1.NeverReinvocationPolicy)
	}
}

// defaultEndpoints is SetObjectDefaults_Endpoints: ports' protocol TCP.
func defaultEndpoints(e *corev1.Endpoints) {
	for i := range e.Subsets {
		for j := range e.Subsets[i].Ports {
			if p := &e.Subsets[i].Ports[j]; p.Protocol == "" {
				p.Protocol = corev1.ProtocolTCP
			}
		}
	}
}

// defaultEndpointSlice is SetObjectDefaults_EndpointSlice: ports' name ""
// and protocol TCP.
func defaultEndpointSlice(e *discoveryv1.EndpointSlice) {
	for i := range e.Ports {
		setIfNil(&e.Ports[i].Name, "")
		setIfNil(&e.Ports[i].Protocol, corev1.ProtocolTCP)
	}
}

// defaultLimitRange is SetObjectDefaults_LimitRange: a Container limit's
// default is its max where unset, its default request its default, else
// its min; quantities rounded up.
func defaultLimitRange(l *corev1.LimitRange) {
	for i := range l.Spec.Limits {
		it := &l.Spec.Limits[i]
		if it.Type == corev1.LimitTypeContainer {
			if it.Default == nil {
				it.Default = corev1.ResourceList{}
			}
			if it.DefaultRequest == nil {
				it.DefaultRequest = corev1.ResourceList{}
			}
			for _, from := range []struct{ src, dst corev1.ResourceList }{{it.Max, it.Default}, {it.Default, it.DefaultRequest}, {it.Min, it.DefaultRequest}} {
				for k, v := range from.src {
					if _, ok := from.dst[k]; !ok {
						from.dst[k] = v.DeepCopy()
					}
				}
			}
		}
		for _, l := range []corev1.ResourceList{it.Max, it.Min, it.Default, it.DefaultRequest, it.MaxLimitRequestRatio} {
			roundUp(l)
		}
	}
}
