package simcluster

import (
	"testing"
)

// portCases are Services and workloads whose ports Vector's chart makes
// from the user's configuration: a Service without ports (a role the chart
// does not know), a headless one without ports, two sources on one port
// with another protocol (valid) and with the same, container port names
// cut to the same 15 characters, and other malformed ports.
var portCases = []struct{ name, manifest string }{
	{"no ports", "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: default}\nspec:\n  ports:\n  selector: {app: x}\n  type: ClusterIP\n"},
	{"headless no ports", "apiVersion: v1\nkind: Service\nmetadata: {name: b, namespace: default}\nspec:\n  clusterIP: None\n  ports:\n  selector: {app: x}\n"},
	{"same port two protocols", "apiVersion: v1\nkind: Service\nmetadata: {name: c, namespace: default}\nspec:\n  ports:\n  - {name: syslog-tcp, port: 514, protocol: TCP}\n  - {name: syslog-udp, port: 514, protocol: UDP}\n  selector: {app: x}\n"},
	{"same port", "apiVersion: v1\nkind: Service\nmetadata: {name: d, namespace: default}\nspec:\n  ports:\n  - {name: http-server, port: 8080}\n  - {name: splunk-hec, port: 8080}\n  selector: {app: x}\n"},
	{"names", "apiVersion: v1\nkind: Service\nmetadata: {name: e, namespace: default}\nspec:\n  ports:\n  - {port: 80}\n  - {name: a, port: 81}\n  - {name: a, port: 82}\n  - {name: B_c, port: 0}\n  - {name: d, port: 83, targetPort: prometheus-exporter}\n  selector: {app: x}\n"},
	{"container port names", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: f, namespace: default}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      containers:\n      - name: c\n        image: i\n        ports:\n        - {name: prometheus-expo, containerPort: 9090}\n        - {name: prometheus-expo, containerPort: 9091}\n        - {name: prometheus-exporter, containerPort: 9092}\n      - name: d\n        image: i\n        ports:\n        - {name: prometheus-expo, containerPort: 9093}\n        - {containerPort: 70000}\n"},
	{"pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: g, namespace: default}\nspec:\n  initContainers:\n  - name: i\n    image: i\n    ports:\n    - {name: x, containerPort: 1}\n    - {name: x, containerPort: 2}\n  containers:\n  - name: c\n    image: i\n"},
}

// TestRealClusterPortValidation creates the objects of portCases on a
// real kube-apiserver and on a simulated cluster and compares the answers.
func TestRealClusterPortValidation(t *testing.T) {
	compareCreates(t, portCases)
}
