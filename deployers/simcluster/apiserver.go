package simcluster

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/lscli/lscli/internal/ids"
)

// allocate does what the registries of Services and Jobs do to an object
// being stored, after its defaults (admit), as kube-apiserver's
// pkg/registry/core/service/storage and pkg/registry/batch/job do on a
// single-stack IPv4 cluster: a Service gets its IP family fields, a cluster
// IP and node ports (see allocateService); a Job its generated selector
// (see generateJobSelector). old is the stored object, nil on create;
// used, what the cluster's other Services hold (nil: nothing). What a
// Service asks for that another holds is an error, as kube-apiserver's.
func allocate(src ids.Source, cluster string, used *allocations, old, obj runtime.Object) error {
	switch o := obj.(type) {
	case *corev1.Service:
		prev, _ := old.(*corev1.Service)
		return allocateService(src, cluster, used, prev, o)
	case *batchv1.Job:
		generateJobSelector(o)
	}
	return nil
}

// Job labels the Job registry adds to a Job's pod template.
const (
	jobNameLabel             = "batch.kubernetes.io/job-name"
	legacyJobNameLabel       = "job-name"
	controllerUIDLabel       = "batch.kubernetes.io/controller-uid"
	legacyControllerUIDLabel = "controller-uid"
)

// generateJobSelector does what the Job registry does on create when
// manualSelector is not true: the pod template gets the labels job-name
// and controller-uid (each also under batch.kubernetes.io/) that it does
// not have, and the selector matches batch.kubernetes.io/controller-uid.
// The Job's labels, when the defaulting made them its template's (it
// shares the map, see defaultJob), get them too, as on a real server; a
// Job without labels gets its template's, as a real server shows it. A real server does it only on
// create (and rejects an update that drops them); the simulated cluster
// does it on update too, so that writing a manifest again is no change.
func generateJobSelector(j *batchv1.Job) {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector {
		return
	}
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	uid := string(j.UID)
	for _, kv := range [...][2]string{{legacyJobNameLabel, j.Name}, {jobNameLabel, j.Name},
		{legacyControllerUIDLabel, uid}, {controllerUIDLabel, uid}} {
		if _, ok := t.Labels[kv[0]]; !ok {
			t.Labels[kv[0]] = kv[1]
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &metav1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[controllerUIDLabel]; !ok {
		j.Spec.Selector.MatchLabels[controllerUIDLabel] = uid
	}
	// A Job without labels shows its template's when it is read (the
	// defaulting runs on every decode, from storage too).
	if len(j.Labels) == 0 {
		j.Labels = t.Labels
	}
}

// Node ports are allocated from kube-apiserver's default range.
const (
	nodePortBase  = 30000
	nodePortCount = 2768
)

// allocateService does what the Service registry does on create and update
// (pkg/registry/core/service/storage): on update it drops what the type no
// longer has and keeps the cluster IPs and node ports the client left out;
// then clusterIPs follows clusterIP, the IP family policy (SingleStack, or
// RequireDualStack for a headless Service without selector) and families
// (IPv4) are set, and a cluster IP and node ports are allocated where
// missing. Cluster IPs (10.96.0.0/16) and node ports (30000-32767) start
// at a value derived from the Service's name and go on to the next one
// that neither the Service nor another Service of the cluster (used) holds,
// so every run gets the same and no two Services share one; what the
// Service asks for that another holds is refused (checkRequested), as is
// a node port outside the range (checkNodePortRange).
func allocateService(src ids.Source, cluster string, used *allocations, old, s *corev1.Service) error {
	spec := &s.Spec
	if old != nil {
		dropTypeDependentFields(old, s)
		patchAllocatedValues(old, s)
	}
	normalizeClusterIPs(old, s)
	if err := checkRequested(used, old, s); err != nil {
		return err
	}
	if err := checkNodePortRange(old, s); err != nil {
		return err
	}
	if used == nil {
		used = &allocations{}
	}
	if spec.Type == corev1.ServiceTypeExternalName {
		// A real server may store it, from the time it was another type,
		// but drops it when it reads an ExternalName Service.
		spec.InternalTrafficPolicy = nil
	} else {
		initIPFamilies(old, s)
		if len(spec.ClusterIPs) == 0 || spec.ClusterIPs[0] == "" {
			const count = 254 * 254
			n := int(src.Uint(count, "clusterIP", cluster, s.Namespace, s.Name))
			ip := clusterIP(n)
			for i := 0; used.holdsIP(ip) && i < count; i++ {
				n = (n + 1) % count
				ip = clusterIP(n)
			}
			spec.ClusterIP = ip
			if len(spec.ClusterIPs) == 0 {
				spec.ClusterIPs = []string{ip}
			} else {
				spec.ClusterIPs[0] = ip
			}
		}
	}
	allocateNodePorts(src, cluster, used, s)
	return nil
}

// clusterIP is the n-th cluster IP the simulated cluster allocates, of
// 10.96.0.0/16 less the addresses whose last byte is 0 or 255.
func clusterIP(n int) string {
	n++
	return fmt.Sprintf("10.96.%d.%d", n/254, n%254+1)
}

// needsNodePort reports whether s has node ports allocated.
func needsNodePort(s *corev1.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeNodePort || s.Spec.Type == corev1.ServiceTypeLoadBalancer &&
		(s.Spec.AllocateLoadBalancerNodePorts == nil || *s.Spec.AllocateLoadBalancerNodePorts)
}

// needsHealthCheckNodePort reports whether s gets a health check node port:
// a LoadBalancer Service with external traffic policy Local.
func needsHealthCheckNodePort(s *corev1.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeLoadBalancer && s.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

// dropTypeDependentFields clears, on an update that changes a Service's
// type, what the old type had and the new one has not, when the client
// left it as stored (the Service strategy's PrepareForUpdate).
func dropTypeDependentFields(old, s *corev1.Service) {
	spec, was := &s.Spec, &old.Spec
	if old.Spec.Type != corev1.ServiceTypeExternalName && spec.Type == corev1.ServiceTypeExternalName {
		if spec.ClusterIP == was.ClusterIP && slices.Equal(spec.ClusterIPs, was.ClusterIPs) {
			spec.ClusterIP, spec.ClusterIPs = "", nil
		}
		if slices.Equal(spec.IPFamilies, was.IPFamilies) {
			spec.IPFamilies = nil
		}
		if ptrEqual(spec.IPFamilyPolicy, was.IPFamilyPolicy) {
			spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePort(old) && !needsNodePort(s) {
		oldPorts := map[int32]bool{}
		for _, p := range was.Ports {
			oldPorts[p.NodePort] = true
		}
		same := true
		for _, p := range spec.Ports {
			same = same && (p.NodePort == 0 || oldPorts[p.NodePort])
		}
		if same {
			for i := range spec.Ports {
				spec.Ports[i].NodePort = 0
			}
		}
	}
	if needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(s) && spec.HealthCheckNodePort == was.HealthCheckNodePort {
		spec.HealthCheckNodePort = 0
	}
	if was.Type == corev1.ServiceTypeLoadBalancer && spec.Type != corev1.ServiceTypeLoadBalancer &&
		spec.AllocateLoadBalancerNodePorts != nil && ptrEqual(spec.AllocateLoadBalancerNodePorts, was.AllocateLoadBalancerNodePorts) {
		spec.AllocateLoadBalancerNodePorts = nil
	}
	if externallyAccessible(old) && !externallyAccessible(s) && spec.ExternalTrafficPolicy == was.ExternalTrafficPolicy {
		spec.ExternalTrafficPolicy = ""
	}
	if spec.Type != corev1.ServiceTypeLoadBalancer {
		s.Status.LoadBalancer = corev1.LoadBalancerStatus{}
	}
}

// ptrEqual reports whether a and b are both nil or point to equal values.
func ptrEqual[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// patchAllocatedValues keeps on update what was allocated and the client
// left out: the cluster IPs, node ports (by port name) and the health check
// node port.
func patchAllocatedValues(old, s *corev1.Service) {
	spec, was := &s.Spec, &old.Spec
	if old.Spec.Type != corev1.ServiceTypeExternalName && spec.Type != corev1.ServiceTypeExternalName {
		if spec.ClusterIP == "" {
			spec.ClusterIP = was.ClusterIP
		}
		if len(spec.ClusterIPs) == 0 && len(was.ClusterIPs) > 0 {
			spec.ClusterIPs = was.ClusterIPs
		}
	}
	if needsNodePort(old) && needsNodePort(s) {
		inNew := map[int32]bool{}
		for _, p := range spec.Ports {
			inNew[p.NodePort] = p.NodePort != 0
		}
		byName := map[string]int32{}
		for _, p := range was.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range spec.Ports {
			if p := &spec.Ports[i]; p.NodePort == 0 && !inNew[byName[p.Name]] {
				p.NodePort = byName[p.Name]
			}
		}
	}
	if needsHealthCheckNodePort(old) && needsHealthCheckNodePort(s) && spec.HealthCheckNodePort == 0 {
		spec.HealthCheckNodePort = was.HealthCheckNodePort
	}
}

// normalizeClusterIPs keeps clusterIPs in step with clusterIP, as the
// Service registry does before it allocates.
func normalizeClusterIPs(old, s *corev1.Service) {
	spec := &s.Spec
	if old == nil {
		if spec.ClusterIP != "" && len(spec.ClusterIPs) == 0 {
			spec.ClusterIPs = []string{spec.ClusterIP}
		}
		return
	}
	was := &old.Spec
	if len(was.ClusterIPs) > 0 && len(spec.ClusterIPs) == 0 && was.ClusterIP == spec.ClusterIP {
		spec.ClusterIPs = was.ClusterIPs
	}
	if was.ClusterIP != spec.ClusterIP && slices.Equal(was.ClusterIPs, spec.ClusterIPs) {
		if was.ClusterIP != "" && spec.ClusterIP == "" {
			spec.ClusterIPs = nil
		} else {
			spec.ClusterIPs = []string{spec.ClusterIP}
		}
	}
}

// initIPFamilies sets a Service's IP family policy and families as the
// Service registry does on a single-stack IPv4 cluster.
func initIPFamilies(old, s *corev1.Service) {
	spec := &s.Spec
	headlessSelectorless := spec.ClusterIP == corev1.ClusterIPNone && len(spec.Selector) == 0
	if spec.IPFamilyPolicy == nil {
		switch {
		case old != nil && old.Spec.IPFamilyPolicy != nil:
			spec.IPFamilyPolicy = old.Spec.IPFamilyPolicy
		case headlessSelectorless:
			spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyRequireDualStack)
		default:
			spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicySingleStack)
		}
	}
	for i, ip := range spec.ClusterIPs {
		if ip == corev1.ClusterIPNone {
			break
		}
		if i >= len(spec.IPFamilies) {
			spec.IPFamilies = append(spec.IPFamilies, familyOf(ip))
		}
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	}
	if headlessSelectorless && len(spec.IPFamilies) < 2 && *spec.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
		other := corev1.IPv6Protocol
		if spec.IPFamilies[0] == corev1.IPv6Protocol {
			other = corev1.IPv4Protocol
		}
		spec.IPFamilies = append(spec.IPFamilies, other)
	}
}

// familyOf is the IP family of ip.
func familyOf(ip string) corev1.IPFamily {
	if strings.Contains(ip, ":") {
		return corev1.IPv6Protocol
	}
	return corev1.IPv4Protocol
}

// allocateNodePorts gives each port of a NodePort Service (and of a
// LoadBalancer Service that allocates them) without a node port one: that
// of another port with the same number, else one free in the Service and
// in taken (the other Services'); and a LoadBalancer Service with external
// traffic policy Local its health check node port.
func allocateNodePorts(src ids.Source, cluster string, taken *allocations, s *corev1.Service) {
	spec := &s.Spec
	alloc := spec.Type == corev1.ServiceTypeNodePort ||
		spec.Type == corev1.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts != nil && *spec.AllocateLoadBalancerNodePorts
	hc := needsHealthCheckNodePort(s) && spec.HealthCheckNodePort == 0
	if !alloc && !hc {
		return
	}
	used := map[int32]bool{spec.HealthCheckNodePort: true}
	for _, p := range spec.Ports {
		used[p.NodePort] = true
	}
	next := func(key string) int32 {
		n := int32(src.Uint(nodePortCount, "nodePort", cluster, s.Namespace, s.Name, key))
		for i := 0; (used[nodePortBase+n] || taken.holdsPort(nodePortBase+n)) && i < nodePortCount; i++ {
			n = (n + 1) % nodePortCount
		}
		used[nodePortBase+n] = true
		return nodePortBase + n
	}
	if alloc {
		byPort := map[int32]int32{}
		for _, p := range spec.Ports {
			if p.NodePort != 0 {
				if _, ok := byPort[p.Port]; !ok {
					byPort[p.Port] = p.NodePort
				}
			}
		}
		for i := range spec.Ports {
			p := &spec.Ports[i]
			if p.NodePort != 0 {
				continue
			}
			if np, ok := byPort[p.Port]; ok {
				p.NodePort = np
				continue
			}
			p.NodePort = next(strconv.Itoa(i))
			byPort[p.Port] = p.NodePort
		}
	}
	if hc {
		spec.HealthCheckNodePort = next("healthCheck")
	}
}
