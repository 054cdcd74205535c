package simcluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestDefaultsAreStored: a Deployment is stored with the API server's
// defaults (the pod template's too, see TestRealClusterDefaults), and
// writing the same manifest again, without them, changes nothing: no new
// generation, as on a real cluster, whose defaulting runs before the
// registry compares the specs.
func TestDefaultsAreStored(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(deploymentManifest)
	d := f.get("apps/v1", "Deployment", "default", "web")
	for path, want := range map[string]any{
		"spec.template.spec.restartPolicy": "Always", "spec.template.spec.dnsPolicy": "ClusterFirst",
		"spec.template.spec.schedulerName": "default-scheduler", "spec.strategy.type": "RollingUpdate",
		"spec.progressDeadlineSeconds": int64(600), "spec.revisionHistoryLimit": int64(10),
	} {
		if got, _, _ := unstructured.NestedFieldNoCopy(d.Object, strings.Split(path, ".")...); got != want {
			t.Errorf("stored %s = %v, want %v", path, got, want)
		}
	}
	ctr := d.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	if ctr["imagePullPolicy"] != "Always" || ctr["terminationMessagePath"] != "/dev/termination-log" {
		t.Errorf("stored container %v, want imagePullPolicy Always (no tag) and the termination message path", ctr)
	}
	rv := d.GetResourceVersion()

	u := obj(t, deploymentManifest)
	u.SetResourceVersion(rv)
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`))
	if err := f.c.Patch(ctx, obj(t, deploymentManifest), patch); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Patch(ctx, obj(t, deploymentManifest), client.Apply, client.FieldOwner("test"), client.ForceOwnership); err != nil {
		t.Fatal(err)
	}
	d = f.get("apps/v1", "Deployment", "default", "web")
	if d.GetGeneration() != 1 {
		t.Errorf("generation after writing the same manifest = %d, want 1", d.GetGeneration())
	}
}
