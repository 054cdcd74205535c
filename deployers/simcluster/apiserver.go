package simcluster

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/ids"
)

// allocate does what the API server allocates for a new object: a Service
// gets a cluster IP unless it is headless or of type ExternalName. On
// update (old != nil) a cluster IP the client left out is kept, where a real
// server would reject the update.
func allocate(src ids.Source, cluster string, old, obj runtime.Object) {
	svc, ok := obj.(*corev1.Service)
	if !ok || svc.Spec.ClusterIP != "" || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	if prev, ok := old.(*corev1.Service); ok && prev.Spec.ClusterIP != "" {
		svc.Spec.ClusterIP, svc.Spec.ClusterIPs = prev.Spec.ClusterIP, prev.Spec.ClusterIPs
		return
	}
	n := int(src.Uint(254*254, "clusterIP", cluster, svc.Namespace, svc.Name)) + 1
	ip := fmt.Sprintf("10.96.%d.%d", n/254, n%254+1)
	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = ip, []string{ip}
}
