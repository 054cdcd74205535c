package deletion_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// TestDeleteAllOfUnservedType: a deleteAllResources group of a kind the
// cluster does not serve fails a deletion's first pass, as Landscaper's
// listing fails; once the deletion is under way (Resumed: a later group
// deleted the CRD, and Landscaper never looks at a finished group again)
// the group has nothing left and the later groups go on.
func TestDeleteAllOfUnservedType(t *testing.T) {
	defs := []managedresource.DeletionGroupDefinition{
		custom(false, true, managedresource.ResourceType{APIVersion: "kafka.example/v1", Kind: "Topic"}),
		predefined(managedresource.PredefinedResourceGroupNamespacedResources, false),
	}
	resources := managedresource.ManagedResourceStatusList{mrA}
	g := deletion.Groups{Client: kubetest.NewClient(kubetest.Objects(clusterObjects...)), Definitions: defs}
	if _, err := g.Delete(context.Background(), resources); err == nil ||
		!strings.Contains(err.Error(), "deletiongroups: failed to determine whether type") {
		t.Fatalf("first pass: err = %v, want Landscaper's listing error", err)
	}
	g.Resumed = true
	p, err := g.Settle(context.Background(), resources)
	if err != nil || !p.Done {
		t.Fatalf("resumed: progress %+v, err %v; want done", p, err)
	}
	if kubetest.Get(t, g.Client, "v1", "ConfigMap", "ns", "a") != nil {
		t.Error("ConfigMap ns/a is still there")
	}
}
