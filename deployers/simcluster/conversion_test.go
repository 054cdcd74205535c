package simcluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestConversionNone checks that a custom resource written in a served
// non-storage version is kept once, in the storage version, and read and
// listed in whichever version is asked for (conversion_realcluster_test.go
// compares this with a real kube-apiserver).
func TestConversionNone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(conversionCRD("none", ""), conversionThing("v1beta1", "t"))
	for _, v := range []string{"v1", "v1beta1"} {
		if got := f.get("none.lscli.test/"+v, "Thing", "default", "t"); got.GetAPIVersion() != "none.lscli.test/"+v {
			t.Errorf("get in %s: apiVersion %s", v, got.GetAPIVersion())
		}
	}
	var c *Cluster
	for _, only := range f.clusters.clusters {
		c = only
	}
	objs, err := c.Objects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, o := range objs {
		if o.GetKind() == "Thing" {
			stored = append(stored, o.GetAPIVersion()+" "+o.GetName())
		}
	}
	if got := strings.Join(stored, ", "); got != "none.lscli.test/v1 t" {
		t.Errorf("stored Things: %s, want none.lscli.test/v1 t", got)
	}
	list := &unstructured.UnstructuredList{}
	list.SetAPIVersion("none.lscli.test/v1beta1")
	list.SetKind("ThingList")
	if err := f.c.List(ctx, list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].GetAPIVersion() != "none.lscli.test/v1beta1" {
		t.Errorf("list in v1beta1: %v", list.Items)
	}
}

// TestConversionWebhook checks that a custom resource of a CRD converted
// by webhook is refused in a non-storage version while the webhook's
// Service has no ready pod, in kube-apiserver's words, accepted in the
// storage version, and converted as None converts once a pod is ready.
func TestConversionWebhook(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment", Name: "conv"}, Duration: "1m"})
	ctx := context.Background()
	f.create(strings.ReplaceAll(conversionCRD("hook", "conv"), "namespace: default, path", "namespace: default, port: 443, path"),
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"conv","namespace":"default"},"spec":{"selector":{"app":"conv"},"ports":[{"port":443,"targetPort":9443}]}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"conv","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"conv"}},"template":{"metadata":{"labels":{"app":"conv"}},"spec":{"containers":[{"name":"c","image":"conv"}]}}}}`)
	thing := func(v, name string) *unstructured.Unstructured {
		return obj(t, strings.ReplaceAll(conversionThing(v, name), "none.lscli.test", "hook.lscli.test"))
	}
	if err := f.c.Create(ctx, thing("v1", "stored")); err != nil {
		t.Fatalf("create in the storage version: %v", err)
	}
	err := f.c.Create(ctx, thing("v1beta1", "t"))
	want := `conversion webhook for hook.lscli.test/v1beta1, Kind=Thing failed: Post "https://conv.default.svc:443/convert?timeout=30s": dial tcp `
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "connect: connection refused") {
		t.Fatalf("create in v1beta1 while the webhook has no ready pod: %v", err)
	}
	got := &unstructured.Unstructured{}
	got.SetAPIVersion("hook.lscli.test/v1beta1")
	got.SetKind("Thing")
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "stored"}, got); err == nil ||
		!strings.Contains(err.Error(), "object not decodable revision=") {
		t.Fatalf("get in v1beta1 while the webhook has no ready pod: %v", err)
	}
	f.clock.Step(time.Minute) // the webhook's Deployment becomes ready
	if err := f.c.Create(ctx, thing("v1beta1", "t")); err != nil {
		t.Fatalf("create in v1beta1 once the webhook is ready: %v", err)
	}
	if got := f.get("hook.lscli.test/v1", "Thing", "default", "t"); got.GetAPIVersion() != "hook.lscli.test/v1" {
		t.Errorf("get in v1: %s", got.GetAPIVersion())
	}
}

// TestConversionStorageChange checks that the custom resources stored
// before a CRD changed its storage version are read in every served
// version after it, and stay when the old version is no longer served.
func TestConversionStorageChange(t *testing.T) {
	f := newFixture(t)
	f.create(crdValidateManifest("move", "Namespaced", crdVersion("v1alpha1", true)),
		`{"apiVersion":"move.lscli.test/v1alpha1","kind":"Thing","metadata":{"name":"t","namespace":"default"}}`)
	if err := updateCRD(t, f.c, crdValidateManifest("move", "Namespaced", crdVersion("v1alpha1", false), crdVersion("v1", true))); err != nil {
		t.Fatal(err)
	}
	f.get("move.lscli.test/v1", "Thing", "default", "t")
	f.get("move.lscli.test/v1alpha1", "Thing", "default", "t")
	unserved := strings.Replace(crdValidateManifest("move", "Namespaced", crdVersion("v1alpha1", false), crdVersion("v1", true)), "served: true", "served: false", 1)
	if err := updateCRD(t, f.c, unserved); err != nil {
		t.Fatal(err)
	}
	f.get("move.lscli.test/v1", "Thing", "default", "t")
}

// TestConversionRestoresOldState checks that a custom resource an older
// lscli kept in the version it was written in (not its CRD's storage
// version) is found in every served version after a restore, and saved
// in the storage version.
func TestConversionRestoresOldState(t *testing.T) {
	f := newFixture(t)
	f.create(conversionCRD("none", ""), conversionThing("v1", "t"))
	saved, err := f.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(data), `"apiVersion":"none.lscli.test/v1"`, `"apiVersion":"none.lscli.test/v1beta1"`, 1)
	if old == string(data) {
		t.Fatal("no Thing in the saved state")
	}
	g := newRestored(t, f, []byte(old))
	g.c = g.client()
	g.get("none.lscli.test/v1", "Thing", "default", "t")
	g.get("none.lscli.test/v1beta1", "Thing", "default", "t")
	again, err := g.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	againData, _ := json.Marshal(again)
	if strings.Contains(string(againData), `"apiVersion":"none.lscli.test/v1beta1"`) || !strings.Contains(string(againData), `"apiVersion":"none.lscli.test/v1"`) {
		t.Errorf("saved after the restore: %s", againData)
	}
}
