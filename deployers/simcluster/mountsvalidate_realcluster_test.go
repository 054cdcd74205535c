package simcluster

import (
	"strings"
	"testing"
)

// mountCases are pod templates whose volume mounts kube-apiserver checks:
// Longhorn's longhorn-manager DaemonSet mounts /var/lib/longhorn with
// Bidirectional propagation, allowed for its privileged container only; a
// mount of a volume the pod does not have (a chart's conditional volume
// whose mount is not conditional); two mounts at one path; a propagation
// kube does not know; valid ones.
var mountCases = []struct{ name, manifest string }{
	{"bidirectional without privileged", mountWorkload("DaemonSet", "a", "", "mountPropagation: Bidirectional")},
	{"bidirectional privileged false", mountWorkload("DaemonSet", "b", "securityContext: {privileged: false}", "mountPropagation: Bidirectional")},
	{"bidirectional privileged", mountWorkload("DaemonSet", "c", "securityContext: {privileged: true}", "mountPropagation: Bidirectional")},
	{"host to container", mountWorkload("Deployment", "d", "", "mountPropagation: HostToContainer")},
	{"unknown propagation", mountWorkload("Deployment", "e", "", "mountPropagation: Both")},
	{"volume not found", mountWorkload("Deployment", "f", "", "name: other")},
	{"same path twice", mountWorkload("StatefulSet", "g", "", "mountPath: /a")},
	{"claim template", strings.Replace(mountWorkload("StatefulSet", "j", "", "name: db"), "  selector:", "  volumeClaimTemplates: [{metadata: {name: db}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n  selector:", 1)},
	{"no claim template", mountWorkload("StatefulSet", "k", "", "name: db")},
	{"init container", "apiVersion: v1\nkind: Pod\nmetadata: {name: h, namespace: default}\nspec:\n  volumes: [{name: data, emptyDir: {}}]\n  initContainers:\n  - name: i\n    image: i\n    volumeMounts: [{name: data, mountPath: /d, mountPropagation: Bidirectional}, {name: gone, mountPath: /e}]\n  containers:\n  - name: c\n    image: i\n"},
	{"ports, mounts and resources", mountWorkload("Deployment", "i", "ports: [{name: a, containerPort: 0}]\n        resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}", "mountPropagation: Bidirectional")},
}

// mountWorkload is a workload of kind named name with a volume data and a
// volume longhorn whose one container has the fields container (YAML at
// the container's indentation, may be empty) and mounts data at /a and,
// second, longhorn at /var/lib/longhorn/ with the fields mount (YAML of
// one flow mapping's entries, which override the name or path).
func mountWorkload(kind, name, container, mount string) string {
	if container != "" {
		container = "\n        " + container
	}
	return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: default}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      volumes: [{name: data, emptyDir: {}}, {name: longhorn, hostPath: {path: /var/lib/longhorn/}}]\n      containers:\n      - name: c\n        image: i" + container + "\n        volumeMounts:\n        - {name: data, mountPath: /a}\n        - {name: longhorn, mountPath: /var/lib/longhorn/, " + mount + "}\n"
}

// TestRealClusterMountValidation creates the objects of mountCases on a
// real kube-apiserver and on a simulated cluster and compares the answers.
func TestRealClusterMountValidation(t *testing.T) {
	compareCreates(t, mountCases)
}
