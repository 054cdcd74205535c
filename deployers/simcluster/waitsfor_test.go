package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestWaitsFor: what a workload waits for is the first object its pods
// need that is missing, in the words of the Kubernetes errors; nothing for
// a workload that has all, an object that is not a workload or is not
// there.
func TestWaitsFor(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web}]
      volumes: [{name: cert, secret: {secretName: web-cert}}]
`, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}`)
	for _, c := range []struct {
		gvk      schema.GroupVersionKind
		ns, name string
		want     Wait
	}{
		{deploymentGVK, "default", "web", Wait{Missing: `secret "web-cert" not found`}},
		{deploymentGVK, "default", "none", Wait{}},
		{schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "default", "c", Wait{}},
	} {
		got, err := f.clusters.WaitsFor(ctx, f.target, c.gvk, c.ns, c.name)
		if err != nil || got != c.want {
			t.Errorf("WaitsFor %s %s/%s = %+v, %v; want %+v", c.gvk.Kind, c.ns, c.name, got, err, c.want)
		}
	}
	f.create(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"web-cert","namespace":"default"}}`)
	if got, err := f.clusters.WaitsFor(ctx, f.target, deploymentGVK, "default", "web"); err != nil || got != (Wait{}) {
		t.Errorf("WaitsFor once the Secret exists = %+v, %v; want nothing", got, err)
	}
}
