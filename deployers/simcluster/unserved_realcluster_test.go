package simcluster

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterUnservedVersion installs unservedCRDManifest (v1 served,
// v1beta1 served: false) on a real kube-apiserver and on a simulated
// cluster, and compares what a client gets for a Doohickey of v1beta1: the
// discovery does not list the version (a 404 for the group version, which
// Landscaper's manifest deployer reports as "the server could not find the
// requested resource"), and a client's RESTMapper finds no kind there ("no
// matches for kind", which helm's release reports), as for a kind no CRD
// defines.
func TestRealClusterUnservedVersion(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	f, ns := crdClusters(t, tc, unservedCRDManifest, obj(t, "apiVersion: unserved.example.com/v1\nkind: Doohickey\nmetadata: {name: probe}\n"))

	dc, err := discovery.NewDiscoveryClientForConfig(tc.Config)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dc.ServerResourcesForGroupVersion("unserved.example.com/v1beta1")
	if !apierrors.IsNotFound(err) || err.Error() != "the server could not find the requested resource" {
		t.Errorf("real discovery of unserved.example.com/v1beta1: %v, want NotFound", err)
	}
	sim := f.c.(interface {
		ServesGroupVersion(schema.GroupVersion) bool
	})
	if sim.ServesGroupVersion(schema.GroupVersion{Group: "unserved.example.com", Version: "v1beta1"}) {
		t.Error("the simulated cluster serves unserved.example.com/v1beta1")
	}

	const manifest = "apiVersion: unserved.example.com/v1beta1\nkind: Doohickey\nmetadata: {name: d}\n"
	simObj, realObj := obj(t, manifest), obj(t, manifest)
	simObj.SetNamespace("default")
	realObj.SetNamespace(ns)
	errSim, errReal := f.c.Create(ctx, simObj), tc.Client.Create(ctx, realObj)
	if errString(errSim) != errString(errReal) || errReal == nil {
		t.Errorf("create of an unserved version\nsimulated: %v\nreal:      %v", errSim, errReal)
	} else {
		t.Logf("create of an unserved version: %v", errReal)
	}
}
