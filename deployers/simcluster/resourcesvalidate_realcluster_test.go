package simcluster

import (
	"testing"
)

// resourceCases are workloads whose containers' requests and limits a
// team sets from its imports: KubeVirt's virt-operator requests 450Mi of
// memory, a limit below it is refused; negative quantities; an extended
// resource whose request differs from its limit; valid ones.
var resourceCases = []struct{ name, manifest string }{
	{"memory request above limit", resourceWorkload("Deployment", "a", "resources: {requests: {cpu: 10m, memory: 450Mi}, limits: {memory: 256Mi}}")},
	// Of one container's requests, kube-apiserver reports those above their
	// limits in the order of a Go map's iteration, which differs from run to
	// run (TestResourceRequestAboveLimit pins lscli's, by name): one each.
	{"cpu above its limit, memory within", resourceWorkload("DaemonSet", "b", "resources: {requests: {cpu: '2', memory: 256Mi}, limits: {cpu: 500m, memory: 512Mi}}")},
	{"equal and below", resourceWorkload("Deployment", "c", "resources: {requests: {cpu: 500m, memory: 256Mi}, limits: {cpu: '1', memory: 256Mi}}")},
	{"request without limit", resourceWorkload("StatefulSet", "d", "resources: {requests: {cpu: '4'}, limits: {memory: 1Gi}}")},
	{"negative", resourceWorkload("Deployment", "e", "resources: {requests: {cpu: '-1'}, limits: {memory: '-1Gi'}}")},
	{"extended resource", resourceWorkload("Deployment", "f", "resources: {requests: {example.com/gpu: '1'}, limits: {example.com/gpu: '2'}}")},
	{"init container", "apiVersion: v1\nkind: Pod\nmetadata: {name: g, namespace: default}\nspec:\n  initContainers:\n  - name: i\n    image: i\n    resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}\n"},
	{"ports and resources", resourceWorkload("Deployment", "h", "ports: [{name: a, containerPort: 0}]\n        resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}")},
}

// resourceWorkload is a workload of kind named name whose one container
// has the fields container (YAML at the container's indentation).
func resourceWorkload(kind, name, container string) string {
	return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: default}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      containers:\n      - name: c\n        image: i\n        " + container + "\n"
}

// TestRealClusterResourceValidation creates the objects of resourceCases
// on a real kube-apiserver and on a simulated cluster and compares the
// answers.
func TestRealClusterResourceValidation(t *testing.T) {
	compareCreates(t, resourceCases)
}
