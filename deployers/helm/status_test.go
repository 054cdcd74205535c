package helm

import (
	"fmt"
	"strings"
	"testing"
)

// TestManagedResourcesOfRelease: a release's managed resources are its
// objects whose group and kind Landscaper's default readiness check has
// rules for (IsRelevantForDefaultReadinessCheck), looked at document by
// document: a List is of kind List and so left out with its items, as in
// Landscaper's GetManagedResourcesStatus; a kind Deployment of another group
// is no Deployment.apps.
func TestManagedResourcesOfRelease(t *testing.T) {
	manifest := `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
---
apiVersion: v1
kind: Pod
metadata: {name: pod, namespace: other}
---
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: listed}
---
apiVersion: example.com/v1
kind: Deployment
metadata: {name: custom}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
`
	list, err := managedResources(manifest, "rel")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mr := range list {
		r := mr.Resource
		got = append(got, fmt.Sprintf("%s %s %s/%s", r.APIVersion, r.Kind, r.Namespace, r.Name))
	}
	want := "apps/v1 Deployment rel/app\nv1 Pod other/pod"
	if strings.Join(got, "\n") != want {
		t.Errorf("managed resources:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
