package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// createServices creates n NodePort Services with two ports each, named
// PREFIX-0 and on, in the namespace default.
func (f *fixture) createServices(prefix string, n int) {
	f.t.Helper()
	for i := range n {
		f.create(fmt.Sprintf(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"%s-%d","namespace":"default"},`+
			`"spec":{"type":"NodePort","ports":[{"name":"a","port":80},{"name":"b","port":443}]}}`, prefix, i))
	}
}

// checkUnique fails the test when two Services of the cluster share a
// cluster IP or a node port, and returns the Services as JSON.
func (f *fixture) checkUnique() string {
	f.t.Helper()
	list := &corev1.ServiceList{}
	if err := f.c.List(context.Background(), list); err != nil {
		f.t.Fatal(err)
	}
	ips, ports := map[string]string{}, map[int32]string{}
	for _, s := range list.Items {
		if other, ok := ips[s.Spec.ClusterIP]; ok {
			f.t.Errorf("Services %s and %s share the cluster IP %s", other, s.Name, s.Spec.ClusterIP)
		}
		ips[s.Spec.ClusterIP] = s.Name
		for _, p := range s.Spec.Ports {
			if other, ok := ports[p.NodePort]; ok {
				f.t.Errorf("Services %s and %s share the node port %d", other, s.Name, p.NodePort)
			}
			ports[p.NodePort] = s.Name
		}
	}
	raw, _ := json.Marshal(list.Items)
	return string(raw)
}

// TestAllocationsAreUnique: many Services (enough that the values derived
// from their names collide) get distinct cluster IPs and node ports, the
// same in every run, also when more are created after the cluster was
// saved and restored.
func TestAllocationsAreUnique(t *testing.T) {
	run := func() (string, string) {
		f := newFixture(t)
		f.createServices("svc", 150)
		first := f.checkUnique()
		saved, err := f.clusters.Save()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(saved)
		g := newRestored(t, f, data)
		g.c = g.client()
		g.createServices("more", 100)
		return first, g.checkUnique()
	}
	a1, a2 := run()
	b1, b2 := run()
	if a1 != b1 || a2 != b2 {
		t.Error("two identical runs allocated differently")
	}
}

// TestRequestedAllocationConflicts: a node port or cluster IP that another
// Service holds is refused with kube-apiserver's Invalid error, and free
// again when that Service is deleted (TestRealClusterAllocationConflicts
// compares more cases with a real kube-apiserver).
func TestRequestedAllocationConflicts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"default"},
		"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`)
	a := &corev1.Service{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "a"}, a); err != nil {
		t.Fatal(err)
	}
	b := obj(t, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"b","namespace":"default"},
		"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`)
	err := f.c.Create(ctx, b.DeepCopy())
	want := `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("create with a held node port: %v, want %s", err, want)
	}
	c := obj(t, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"c","namespace":"default"},
		"spec":{"clusterIP":"`+a.Spec.ClusterIP+`","ports":[{"port":80}]}}`)
	err = f.c.Create(ctx, c.DeepCopy())
	want = `Service "c" is invalid: spec.clusterIPs: Invalid value: ["` + a.Spec.ClusterIP + `"]: failed to allocate IP ` +
		a.Spec.ClusterIP + `: provided IP is already allocated`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("create with a held cluster IP: %v, want %s", err, want)
	}
	if err := f.c.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Create(ctx, b); err != nil {
		t.Errorf("create with a node port freed by a delete: %v", err)
	}
	if err := f.c.Create(ctx, c); err != nil {
		t.Errorf("create with a cluster IP freed by a delete: %v", err)
	}
}
