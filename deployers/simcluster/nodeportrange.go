package simcluster

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// errNodePortRange is kube-apiserver's node port allocator's refusal of a
// port outside its range (portallocator.ErrNotInRange with the default
// --service-node-port-range).
var errNodePortRange = fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d",
	nodePortBase, nodePortBase+nodePortCount-1)

// checkNodePortRange refuses a node port s asks for outside the cluster's
// node port range, as the Service registry does when it allocates the
// ports a NodePort or LoadBalancer Service names (pkg/registry/core/
// service/storage/alloc.go, initNodePorts and updateNodePorts: Invalid
// spec.ports[i].nodePort), before the Service is validated. old is the
// stored Service, nil on create; on update only ports old did not hold are
// allocated. Helm charts that expose a node port of the user's choice
// (Harbor's expose.nodePort.ports.http.nodePort) meet it when the user
// writes the port they mean to reach, 80 or 443.
func checkNodePortRange(old, s *corev1.Service) error {
	if s.Spec.Type != corev1.ServiceTypeNodePort && s.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return nil
	}
	held := map[int32]bool{}
	if old != nil && (old.Spec.Type == corev1.ServiceTypeNodePort || old.Spec.Type == corev1.ServiceTypeLoadBalancer) {
		for _, p := range old.Spec.Ports {
			held[p.NodePort] = true
		}
	}
	for i, p := range s.Spec.Ports {
		if p.NodePort == 0 || held[p.NodePort] || p.NodePort >= nodePortBase && p.NodePort < nodePortBase+nodePortCount {
			continue
		}
		return apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, s.Name, field.ErrorList{
			field.Invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), p.NodePort, errNodePortRange)})
	}
	return nil
}
