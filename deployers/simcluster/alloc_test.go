package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ktypes "k8s.io/apimachinery/pkg/types"
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
		g := f.restored()
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
	// An update does not allocate a cluster IP it changes (only a Service
	// that was ExternalName gets new ones): validation refuses the change.
	f.create(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"d","namespace":"default"},"spec":{"ports":[{"port":80}]}}`)
	patch := client.RawPatch(ktypes.MergePatchType, []byte(`{"spec":{"clusterIP":"`+a.Spec.ClusterIP+`","clusterIPs":["`+a.Spec.ClusterIP+`"]}}`))
	err = f.c.Patch(ctx, obj(t, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"d","namespace":"default"}}`), patch)
	want = `Service "d" is invalid: spec.clusterIPs[0]: Invalid value: ["` + a.Spec.ClusterIP + `"]: may not change once set`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("update to a held cluster IP: %v, want %s", err, want)
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

// TestServiceIndexFollowsEveryWrite: the allocations a cluster keeps in its
// index of Services are those read from the stored Services, after every
// kind of write: creates of every type, updates and patches that change the
// type, server-side applies, deletes, and the deletion of a namespace with
// its Services.
func TestServiceIndexFollowsEveryWrite(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(3, 4))
	f.create("{apiVersion: v1, kind: Namespace, metadata: {name: other}}")
	namespaces := []string{"default", "other"}
	types := []string{"ClusterIP", "NodePort", "LoadBalancer", "ExternalName"}
	svc := func(ns, name, typ string) *unstructured.Unstructured {
		extra := ""
		if typ == "ExternalName" {
			extra = `,"externalName":"example.com"`
		}
		return obj(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"Service","metadata":{"name":%q,"namespace":%q},`+
			`"spec":{"type":%q,"ports":[{"name":"a","port":80},{"name":"b","port":443}]%s}}`, name, ns, typ, extra))
	}
	cl := f.clusters.clusters["example/cluster"]
	if cl == nil || cl.tracker.index == nil {
		t.Fatal("the fixture's cluster example/cluster has no index")
	}
	check := func(step int) {
		t.Helper()
		indexed, err := cl.tracker.allocated("", "")
		if err != nil {
			t.Fatal(err)
		}
		index := cl.tracker.index
		cl.tracker.index = nil
		listed, err := cl.tracker.allocated("", "")
		cl.tracker.index = index
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(indexed.clusterIPs, listed.clusterIPs) || !reflect.DeepEqual(indexed.nodePorts, listed.nodePorts) {
			t.Fatalf("step %d: the index holds %v %v, the stored Services %v %v",
				step, indexed.clusterIPs, indexed.nodePorts, listed.clusterIPs, listed.nodePorts)
		}
	}
	for step := range 200 {
		ns, name, typ := namespaces[rnd.IntN(2)], fmt.Sprintf("s%d", rnd.IntN(6)), types[rnd.IntN(len(types))]
		var err error
		switch rnd.IntN(4) {
		case 0:
			err = f.c.Create(ctx, svc(ns, name, typ))
		case 1:
			extra := `,"externalName":null`
			if typ == "ExternalName" {
				extra = `,"externalName":"example.com"`
			}
			patch := client.RawPatch(ktypes.MergePatchType, []byte(fmt.Sprintf(`{"spec":{"type":%q%s}}`, typ, extra)))
			err = f.c.Patch(ctx, svc(ns, name, typ), patch)
		case 2:
			err = f.c.Patch(ctx, svc(ns, name, typ), client.Apply, client.FieldOwner("test"), client.ForceOwnership)
		case 3:
			err = f.c.Delete(ctx, svc(ns, name, typ))
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) && !apierrors.IsInvalid(err) {
			t.Fatalf("step %d: %v", step, err)
		}
		check(step)
	}
	if err := f.c.Delete(ctx, obj(t, "{apiVersion: v1, kind: Namespace, metadata: {name: other}}")); err != nil {
		t.Fatal(err)
	}
	check(-1)
}
