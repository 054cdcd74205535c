package apply_test

import (
	"context"
	"fmt"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// Apply a ConfigMap and a Namespace, then apply again without the
// ConfigMap: it is an orphan and is deleted.
func ExampleApply() {
	ctx := context.Background()
	c := kubetest.NewClient(nil)
	opts := apply.Options{Client: c, DeployItem: "my-item", UpdateStrategy: "update", Manifests: []managedresource.Manifest{
		{Policy: managedresource.ManagePolicy, Manifest: raw("{apiVersion: v1, kind: ConfigMap, metadata: {name: cfg, namespace: ns}}")},
		{Policy: managedresource.KeepPolicy, Manifest: raw("{apiVersion: v1, kind: Namespace, metadata: {name: ns}}")},
	}}
	res, err := apply.Apply(ctx, opts)
	if err != nil {
		panic(err)
	}
	fmt.Println(inventory(res.ManagedResources))

	opts.Manifests, opts.ManagedResources = opts.Manifests[1:], res.ManagedResources
	for done := false; !done; {
		if res, err = apply.Apply(ctx, opts); err != nil {
			panic(err)
		}
		done = res.Orphans.Done // repeat after deletion.PollInterval
	}
	fmt.Println(inventory(res.ManagedResources))
	left := &unstructured.Unstructured{}
	left.SetAPIVersion("v1")
	left.SetKind("ConfigMap")
	err = c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cfg"}, left)
	fmt.Println("ConfigMap gone:", apierrors.IsNotFound(err))
	// Output:
	// keep Namespace ns
	// manage ConfigMap ns/cfg
	// keep Namespace ns
	// ConfigMap gone: true
}
