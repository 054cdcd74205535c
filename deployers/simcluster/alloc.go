package simcluster

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// allocations are the cluster IPs and node ports (health check node ports
// included) that the stored Services of a cluster hold, but for the
// Service being written. They are read from the stored Services at every
// write of a Service, not kept beside them: what a deleted Service or one
// whose type no longer needs them held is free at once, and a cluster
// restored from the state has the allocations of its Services.
type allocations struct {
	clusterIPs map[string]bool
	nodePorts  map[int32]bool
}

var servicesResource = schema.GroupVersionResource{Version: "v1", Resource: "services"}

// allocatedFor returns, when obj is a Service, the allocations of the
// other stored Services; nil for any other kind.
func (t *tracker) allocatedFor(obj runtime.Object) (*allocations, error) {
	s, ok := obj.(*corev1.Service)
	if !ok {
		return nil, nil
	}
	return t.allocated(s.Namespace, s.Name)
}

// allocated returns the allocations of the stored Services other than the
// Service ns/name.
func (t *tracker) allocated(ns, name string) (*allocations, error) {
	a := &allocations{clusterIPs: map[string]bool{}, nodePorts: map[int32]bool{}}
	list, err := t.ObjectTracker.List(servicesResource, corev1.SchemeGroupVersion.WithKind("Service"), "")
	if err != nil {
		return nil, fmt.Errorf("list Services for their allocations: %w", err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		s, ok := it.(*corev1.Service)
		if !ok || s.Namespace == ns && s.Name == name {
			continue
		}
		for _, ip := range s.Spec.ClusterIPs {
			if ip != "" && ip != corev1.ClusterIPNone {
				a.clusterIPs[ip] = true
			}
		}
		if ip := s.Spec.ClusterIP; ip != "" && ip != corev1.ClusterIPNone {
			a.clusterIPs[ip] = true
		}
		for _, p := range s.Spec.Ports {
			if p.NodePort != 0 {
				a.nodePorts[p.NodePort] = true
			}
		}
		if s.Spec.HealthCheckNodePort != 0 {
			a.nodePorts[s.Spec.HealthCheckNodePort] = true
		}
	}
	return a, nil
}

// errAllocated is the text of kube-apiserver's port and IP allocators when
// what is asked for is held (portallocator.ErrAllocated,
// ipallocator.ErrAllocated).
const (
	errPortAllocated = "provided port is already allocated"
	errIPAllocated   = "provided IP is already allocated"
)

// checkRequested refuses what s asks for that another Service holds, with
// the errors of kube-apiserver's Service registry
// (pkg/registry/core/service/storage/alloc.go): a cluster IP (Invalid
// spec.clusterIPs), a node port (Invalid spec.ports[i].nodePort; on update
// only one the Service did not hold) and a health check node port (an
// internal error). old is the stored Service, nil on create.
func checkRequested(used *allocations, old, s *corev1.Service) error {
	if used == nil {
		return nil
	}
	spec := &s.Spec
	invalid := func(path *field.Path, value any, detail string) error {
		return apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, s.Name, field.ErrorList{field.Invalid(path, value, detail)})
	}
	if spec.Type != corev1.ServiceTypeExternalName {
		for _, ip := range spec.ClusterIPs {
			if ip == "" || ip == corev1.ClusterIPNone || !used.clusterIPs[ip] || old != nil && slices.Contains(old.Spec.ClusterIPs, ip) {
				continue
			}
			return invalid(field.NewPath("spec", "clusterIPs"), spec.ClusterIPs, fmt.Sprintf("failed to allocate IP %s: %s", ip, errIPAllocated))
		}
	}
	held := map[int32]bool{}
	if old != nil {
		for _, p := range old.Spec.Ports {
			held[p.NodePort] = p.NodePort != 0
		}
	}
	if old == nil {
		// As initNodePorts: the first port of a number takes the node
		// port asked for by any port of that number.
		byPort := map[int32]int32{}
		for i, p := range spec.Ports {
			np, ok := byPort[p.Port]
			if !ok {
				np = requestedNodePort(p.Port, spec.Ports)
				if np == 0 {
					continue
				}
				byPort[p.Port] = np
			} else if p.NodePort == 0 || p.NodePort == np {
				continue
			} else {
				np = p.NodePort
			}
			if used.nodePorts[np] {
				return invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), np, errPortAllocated)
			}
		}
	} else if needsNodePort(s) || spec.Type == corev1.ServiceTypeLoadBalancer {
		for i, p := range spec.Ports {
			if p.NodePort != 0 && !held[p.NodePort] && used.nodePorts[p.NodePort] {
				return invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), p.NodePort, errPortAllocated)
			}
		}
	}
	if hc := spec.HealthCheckNodePort; hc != 0 && needsHealthCheckNodePort(s) && used.nodePorts[hc] &&
		(old == nil || !needsHealthCheckNodePort(old) || old.Spec.HealthCheckNodePort != hc) {
		return apierrors.NewInternalError(fmt.Errorf("failed to allocate requested HealthCheck NodePort %d: %s", hc, errPortAllocated))
	}
	return nil
}

// requestedNodePort is the node port the first port numbered port in ports
// that names one asks for, or 0.
func requestedNodePort(port int32, ports []corev1.ServicePort) int32 {
	for _, p := range ports {
		if p.Port == port && p.NodePort != 0 {
			return p.NodePort
		}
	}
	return 0
}
