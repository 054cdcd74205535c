package simcluster

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"
)

// podTemplateHash is the pod-template-hash kube-controller-manager gives the
// ReplicaSet of a Deployment's pod template (ComputeHash in
// k8s.io/kubernetes/pkg/controller, which is not a dependency of lscli):
// FNV-1a (32 bit) over the template as spew prints it for hashing
// (dump.ForHash, which its DeepHashObject prints), then, when the Deployment
// has a collisionCount, its value as 8 little-endian bytes; the sum in
// decimal is encoded with rand.SafeEncodeString.
//
// tpl must be the template as stored, with the API server's defaults
// (restartPolicy, dnsPolicy, ...; see admit), as kube-controller-manager
// reads it: the template as written hashes to another value.
func podTemplateHash(tpl *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	_, _ = fmt.Fprintf(h, "%v", dump.ForHash(*tpl))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		_, _ = h.Write(b)
	}
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}
