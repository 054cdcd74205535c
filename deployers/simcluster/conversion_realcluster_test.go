package simcluster

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterConversionNone creates conversionCRD's Thing (strategy
// None) in its served non-storage version on a real kube-apiserver and on
// a simulated cluster, and compares what each answers when it is read in
// either version and listed in the storage version: the apiVersion
// rewritten, the rest as written.
func TestRealClusterConversionNone(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	probe := obj(t, conversionThing("v1", "probe"))
	f, ns := crdClusters(t, tc, conversionCRD("none", ""), probe)
	sim, real := obj(t, conversionThing("v1beta1", "t")), obj(t, conversionThing("v1beta1", "t"))
	real.SetNamespace(ns)
	if err := f.c.Create(ctx, sim); err != nil {
		t.Fatal(err)
	}
	if err := tc.Client.Create(ctx, real); err != nil {
		t.Fatal(err)
	}
	if s, r := sim.GetAPIVersion(), real.GetAPIVersion(); s != r {
		t.Errorf("create answer apiVersion\nsimulated: %s\nreal:      %s", s, r)
	}
	for _, version := range []string{"v1", "v1beta1"} {
		gotSim, gotReal := thingIn(version), thingIn(version)
		if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "t"}, gotSim); err != nil {
			t.Fatalf("simulated get %s: %v", version, err)
		}
		if err := tc.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "t"}, gotReal); err != nil {
			t.Fatalf("real get %s: %v", version, err)
		}
		if s, r := gotSim.GetAPIVersion()+" "+specJSON(t, gotSim), gotReal.GetAPIVersion()+" "+specJSON(t, gotReal); s != r {
			t.Errorf("get in %s\nsimulated: %s\nreal:      %s", version, s, r)
		}
	}
	listSim, listReal := &unstructured.UnstructuredList{}, &unstructured.UnstructuredList{}
	listSim.SetAPIVersion("none.lscli.test/v1")
	listSim.SetKind("ThingList")
	listReal.SetAPIVersion("none.lscli.test/v1")
	listReal.SetKind("ThingList")
	if err := f.c.List(ctx, listSim, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	if err := tc.Client.List(ctx, listReal, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	if s, r := listed(listSim), listed(listReal); s != r {
		t.Errorf("list in v1\nsimulated: %s\nreal:      %s", s, r)
	}
}

// TestRealClusterConversionWebhookMissingService creates conversionCRD's
// Thing (strategy Webhook, its Service missing) on a real kube-apiserver
// and on a simulated cluster, in the storage version (no conversion: it
// is stored) and in the other served version (the webhook must be called
// and cannot be), and compares the outcomes, and those of a get, an
// update, a list and a delete in that version.
func TestRealClusterConversionWebhookMissingService(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	probe := obj(t, conversionThing("v1", "probe"))
	probe.SetAPIVersion("webhook.lscli.test/v1")
	f, ns := crdClusters(t, tc, conversionCRD("webhook", "missing"), probe)
	simProbe := probe.DeepCopy()
	simProbe.SetNamespace("default") // as the real cluster has it, for the list
	if err := f.c.Create(ctx, simProbe); err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"v1", "v1beta1"} {
		m := strings.ReplaceAll(conversionThing(version, "t-"+version), "none.lscli.test", "webhook.lscli.test")
		sim, real := obj(t, m), obj(t, m)
		real.SetNamespace(ns)
		s, r := outcome(f.c.Create(ctx, sim)), outcome(tc.Client.Create(ctx, real))
		r = strings.ReplaceAll(r, ns, "default")
		if s != r {
			t.Errorf("create in %s\nsimulated: %s\nreal:      %s", version, s, r)
		}
	}
	got := thingIn("v1beta1")
	got.SetAPIVersion("webhook.lscli.test/v1beta1")
	s := outcome(f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "t-v1"}, got))
	r := strings.ReplaceAll(outcome(tc.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "t-v1"}, got)), ns, "default")
	if s, r := anyRevision(s), anyRevision(r); s != r {
		t.Errorf("get in v1beta1\nsimulated: %s\nreal:      %s", s, r)
	}
	update := func(c client.Client, ns string) string {
		u := thingIn("v1")
		u.SetAPIVersion("webhook.lscli.test/v1")
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "t-v1"}, u); err != nil {
			t.Fatal(err)
		}
		u.SetAPIVersion("webhook.lscli.test/v1beta1")
		u.SetLabels(map[string]string{"changed": "true"})
		return anyRevision(strings.ReplaceAll(outcome(c.Update(ctx, u)), ns, "default"))
	}
	if s, r := update(f.c, "default"), update(tc.Client, ns); s != r {
		t.Errorf("update in v1beta1\nsimulated: %s\nreal:      %s", s, r)
	}
	list := func(c client.Client, ns string) string {
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion("webhook.lscli.test/v1beta1")
		l.SetKind("ThingList")
		return anyRevision(strings.ReplaceAll(outcome(c.List(ctx, l, client.InNamespace(ns))), ns, "default"))
	}
	if s, r := list(f.c, "default"), list(tc.Client, ns); s != r {
		t.Errorf("list in v1beta1\nsimulated: %s\nreal:      %s", s, r)
	}
	del := func(c client.Client, ns string) string {
		u := thingIn("v1beta1")
		u.SetAPIVersion("webhook.lscli.test/v1beta1")
		u.SetNamespace(ns)
		u.SetName("t-v1")
		return anyRevision(strings.ReplaceAll(outcome(c.Delete(ctx, u)), ns, "default"))
	}
	if s, r := del(f.c, "default"), del(tc.Client, ns); s != r {
		t.Errorf("delete in v1beta1\nsimulated: %s\nreal:      %s", s, r)
	}
}

// anyRevision replaces the etcd revision in a storage error's text, which
// differs between clusters.
func anyRevision(s string) string {
	return regexp.MustCompile(`revision=[0-9]+`).ReplaceAllString(s, "revision=N")
}

// thingIn is an empty Thing of none.lscli.test/version to read into.
func thingIn(version string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("none.lscli.test/" + version)
	u.SetKind("Thing")
	return u
}

// listed renders the apiVersion and name of each item of l.
func listed(l *unstructured.UnstructuredList) string {
	var out []string
	for _, it := range l.Items {
		if it.GetName() != "probe" {
			out = append(out, it.GetAPIVersion()+" "+it.GetName())
		}
	}
	return strings.Join(out, ", ")
}
