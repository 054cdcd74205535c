package simcluster

import (
	"fmt"
	"math/rand/v2"

	"github.com/google/uuid"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// newUID returns a random (version 4) UUID drawn from rnd.
func newUID(rnd *rand.Rand) string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := rnd.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return uuid.UUID(b).String()
}

// allocate does what the API server allocates for a new object: a Service
// gets a cluster IP unless it is headless or of type ExternalName. On
// update (old != nil) a cluster IP the client left out is kept, where a real
// server would reject the update.
func allocate(rnd *rand.Rand, old, obj runtime.Object) {
	svc, ok := obj.(*corev1.Service)
	if !ok || svc.Spec.ClusterIP != "" || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	if prev, ok := old.(*corev1.Service); ok && prev.Spec.ClusterIP != "" {
		svc.Spec.ClusterIP, svc.Spec.ClusterIPs = prev.Spec.ClusterIP, prev.Spec.ClusterIPs
		return
	}
	n := rnd.IntN(254*254) + 1
	ip := fmt.Sprintf("10.96.%d.%d", n/254, n%254+1)
	svc.Spec.ClusterIP, svc.Spec.ClusterIPs = ip, []string{ip}
}
