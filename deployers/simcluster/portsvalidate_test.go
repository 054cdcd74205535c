package simcluster

import (
	"context"
	"strings"
	"testing"
)

// TestPortValidation: the Services and workloads of portCases are refused
// or stored as kube-apiserver refuses or stores them (the words checked
// against a real one in TestRealClusterPortValidation).
func TestPortValidation(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	want := map[string]string{
		"no ports":                `422 Invalid Service "a" is invalid: spec.ports: Required value`,
		"headless no ports":       ``,
		"same port two protocols": ``,
		"same port":               `422 Invalid Service "d" is invalid: spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":8080,"TargetPort":0,"NodePort":0}`,
		"names":                   `spec.ports[4].targetPort: Invalid value: "prometheus-exporter": must be no more than 15 characters]`,
		"container port names":    `422 Invalid DaemonSet.apps "f" is invalid: [spec.template.spec.containers[0].ports[1].name: Duplicate value: "prometheus-expo", spec.template.spec.containers[0].ports[2].name: Invalid value: "prometheus-exporter": must be no more than 15 characters, spec.template.spec.containers[1].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive]`,
		"pod":                     `422 Invalid Pod "g" is invalid: spec.initContainers[0].ports[1].name: Duplicate value: "x"`,
	}
	for _, c := range portCases {
		got := outcome(f.c.Create(ctx, obj(t, c.manifest)))
		w := want[c.name]
		if w == "" && got != "" || !strings.Contains(got, w) {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, w)
		}
	}
}
