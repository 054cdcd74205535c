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
// Service being written. They follow the stored Services: on a cluster
// whose store only the tracker writes, an index kept at every write
// (serviceIndex); otherwise read from the stored Services at every write of
// a Service. What a deleted Service or one whose type no longer needs them
// held is free at once, and a cluster restored from the state has the
// allocations of its Services.
type allocations struct {
	// clusterIPs and nodePorts count the Services that hold each value.
	clusterIPs map[string]int
	nodePorts  map[int32]int
	// own is what the Service being written holds itself, not counted as
	// held by another.
	own serviceAllocs
}

// holdsIP reports whether another Service holds the cluster IP ip.
func (a *allocations) holdsIP(ip string) bool {
	n := a.clusterIPs[ip]
	if slices.Contains(a.own.ips, ip) {
		n--
	}
	return n > 0
}

// holdsPort reports whether another Service holds the node port p.
func (a *allocations) holdsPort(p int32) bool {
	n := a.nodePorts[p]
	if slices.Contains(a.own.ports, p) {
		n--
	}
	return n > 0
}

// serviceAllocs are the distinct cluster IPs and node ports of one Service.
type serviceAllocs struct {
	ips   []string
	ports []int32
}

// allocsOf returns the distinct cluster IPs and node ports s holds.
func allocsOf(s *corev1.Service) serviceAllocs {
	var a serviceAllocs
	addIP := func(ip string) {
		if ip != "" && ip != corev1.ClusterIPNone && !slices.Contains(a.ips, ip) {
			a.ips = append(a.ips, ip)
		}
	}
	addPort := func(p int32) {
		if p != 0 && !slices.Contains(a.ports, p) {
			a.ports = append(a.ports, p)
		}
	}
	for _, ip := range s.Spec.ClusterIPs {
		addIP(ip)
	}
	addIP(s.Spec.ClusterIP)
	for _, p := range s.Spec.Ports {
		addPort(p.NodePort)
	}
	addPort(s.Spec.HealthCheckNodePort)
	return a
}

// add counts (n = 1) or uncounts (n = -1) what a Service holds.
func (a *allocations) add(s serviceAllocs, n int) {
	if a.clusterIPs == nil {
		a.clusterIPs, a.nodePorts = map[string]int{}, map[int32]int{}
	}
	for _, ip := range s.ips {
		if a.clusterIPs[ip] += n; a.clusterIPs[ip] == 0 {
			delete(a.clusterIPs, ip)
		}
	}
	for _, p := range s.ports {
		if a.nodePorts[p] += n; a.nodePorts[p] == 0 {
			delete(a.nodePorts, p)
		}
	}
}

// serviceIndex keeps what every stored Service of a cluster holds, by
// namespace and name, and the counts of all of them, so that a Service's
// write does not read every other Service (a cluster of N Services would
// copy N of them at each write).
type serviceIndex struct {
	byName map[string]serviceAllocs
	all    allocations
}

// record notes what the Service ns/name holds now (nil: it is gone).
func (x *serviceIndex) record(ns, name string, s *corev1.Service) {
	key := ns + "/" + name
	if prev, ok := x.byName[key]; ok {
		x.all.add(prev, -1)
		delete(x.byName, key)
	}
	if s == nil {
		return
	}
	a := allocsOf(s)
	if x.byName == nil {
		x.byName = map[string]serviceAllocs{}
	}
	x.byName[key] = a
	x.all.add(a, 1)
}

var servicesResource = schema.GroupVersionResource{Version: "v1", Resource: "services"}

// secretsResource is the resource of Secrets.
var secretsResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// allocate does what the registries allocate for obj (see the function
// allocate), given what the other stored Services hold; old is the stored
// object, nil on create.
func (t *tracker) allocate(old, obj runtime.Object) error {
	used, err := t.allocatedFor(obj)
	if err != nil {
		return err
	}
	return allocate(t.ids, t.cluster, used, old, obj)
}

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
// Service ns/name: from the index where the tracker keeps one, else from a
// List of the Services.
func (t *tracker) allocated(ns, name string) (*allocations, error) {
	if t.index != nil {
		a := t.services.all
		a.own = t.services.byName[ns+"/"+name]
		return &a, nil
	}
	a := &allocations{}
	list, err := t.ObjectTracker.List(servicesResource, corev1.SchemeGroupVersion.WithKind("Service"), "")
	if err != nil {
		return nil, fmt.Errorf("list Services for their allocations: %w", err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if s, ok := it.(*corev1.Service); ok && (s.Namespace != ns || s.Name != name) {
			a.add(allocsOf(s), 1)
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
// spec.clusterIPs; on update only when the Service was ExternalName, as
// updateClusterIPs allocates no other change, which the update validation
// then refuses), a node port (Invalid spec.ports[i].nodePort; on update
// only one the Service did not hold) and a health check node port (an
// internal error). old is the stored Service, nil on create. On update the
// registry allocates (its BeginUpdate hook) before the strategy validates,
// so a node port held by another Service is refused before a change of the
// cluster IP.
func checkRequested(used *allocations, old, s *corev1.Service) error {
	if used == nil {
		return nil
	}
	spec := &s.Spec
	invalid := func(path *field.Path, value any, detail string) error {
		return apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, s.Name, field.ErrorList{field.Invalid(path, value, detail)})
	}
	if spec.Type != corev1.ServiceTypeExternalName && (old == nil || old.Spec.Type == corev1.ServiceTypeExternalName) {
		for _, ip := range spec.ClusterIPs {
			if ip == "" || ip == corev1.ClusterIPNone || !used.holdsIP(ip) || old != nil && slices.Contains(old.Spec.ClusterIPs, ip) {
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
			if used.holdsPort(np) {
				return invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), np, errPortAllocated)
			}
		}
	} else if needsNodePort(s) || spec.Type == corev1.ServiceTypeLoadBalancer {
		for i, p := range spec.Ports {
			if p.NodePort != 0 && !held[p.NodePort] && used.holdsPort(p.NodePort) {
				return invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), p.NodePort, errPortAllocated)
			}
		}
	}
	if hc := spec.HealthCheckNodePort; hc != 0 && needsHealthCheckNodePort(s) && used.holdsPort(hc) &&
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
