package apply_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

const (
	crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, names: {kind: Widget, plural: widgets}, scope: Namespaced}`
	widgetYAML = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}"
	nsYAML     = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}"
	roleYAML   = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, namespace: ignored}"
)

func TestApplyOrder(t *testing.T) {
	tests := []struct {
		name          string
		manifests     []managedresource.Manifest
		failName      string
		defaultNS     string
		wantWrites    string
		wantInventory string
		wantErr       string
	}{
		{name: "crds, then cluster-scoped, then namespaced",
			manifests: []managedresource.Manifest{m("", widgetYAML), m("", cm("b", "")), m("", nsYAML), m("", crdYAML), m("", roleYAML), m("", cm("a", ""))},
			wantWrites: "create CustomResourceDefinition widgets.example.com|create Namespace ns|create ClusterRole r|" +
				"create Widget ns/w|create ConfigMap ns/b|create ConfigMap ns/a",
			wantInventory: " CustomResourceDefinition widgets.example.com\n ClusterRole r\n Namespace ns\n ConfigMap ns/a\n ConfigMap ns/b\n Widget ns/w"},
		{name: "list is expanded",
			manifests:     []managedresource.Manifest{m("manage", "apiVersion: v1\nkind: List\nitems:\n- "+strings.ReplaceAll(cm("a", ""), "\n", "\n  ")+"\n- "+strings.ReplaceAll(cm("b", ""), "\n", "\n  "))},
			wantWrites:    "create ConfigMap ns/a|create ConfigMap ns/b",
			wantInventory: "manage ConfigMap ns/a\nmanage ConfigMap ns/b"},
		{name: "unknown kind fails before any write",
			manifests: []managedresource.Manifest{m("", nsYAML), m("", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}")},
			wantErr:   "unable to get apiresource for example.com/v1, Kind=Gadget"},
		{name: "errors are collected across groups",
			manifests: []managedresource.Manifest{m("", cm("a", "")), m("", nsYAML), m("", cm("b", ""))}, failName: "a",
			wantWrites:    "create Namespace ns|create ConfigMap ns/a|create ConfigMap ns/b",
			wantInventory: " Namespace ns\n ConfigMap ns/b", wantErr: "unable to create resource ns/a: injected failure"},
		{name: "namespaced object without namespace fails",
			manifests:  []managedresource.Manifest{m("", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nons}"), m("", cm("b", ""))},
			wantWrites: "create ConfigMap ns/b", wantInventory: " ConfigMap ns/b",
			wantErr: "unable to get object: an empty namespace may not be set when a resource name is provided"},
		{name: "default namespace", defaultNS: "release",
			manifests:  []managedresource.Manifest{m("", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nons}"), m("", roleYAML)},
			wantWrites: "create ClusterRole r|create ConfigMap release/nons", wantInventory: " ClusterRole r\n ConfigMap release/nons"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRecorder(nil, tt.failName)
			res, err := apply.Apply(context.Background(), apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", Manifests: tt.manifests, DefaultNamespace: tt.defaultNS})
			checkErr(t, err, tt.wantErr)
			if got := strings.Join(c.writes, "|"); got != tt.wantWrites {
				t.Errorf("writes:\n%s\nwant:\n%s", got, tt.wantWrites)
			}
			if got := inventory(res.ManagedResources); got != tt.wantInventory {
				t.Errorf("inventory:\n%s\nwant:\n%s", got, tt.wantInventory)
			}
		})
	}
}

func TestApplyRecordsUIDAndLabels(t *testing.T) {
	// The fake client sets no uids, so the object exists with one.
	c := kubetest.NewClient(kubetest.Objects(cm("a", ", uid: u-1")))
	res := mustApply(t, apply.Options{Client: c, DeployItem: diName, UpdateStrategy: "update", Labels: map[string]string{"extra": "x"},
		Manifests: []managedresource.Manifest{m("manage", cm("a", ", labels: {own: o}"))}})
	got := kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a")
	if uid := res.ManagedResources[0].Resource.UID; uid != "u-1" {
		t.Errorf("recorded uid %q, want u-1", uid)
	}
	want := map[string]string{"own": "o", "extra": "x", apply.DeployItemLabel: diName}
	if l := got.GetLabels(); len(l) != 3 || l["own"] != "o" || l["extra"] != "x" || l[apply.DeployItemLabel] != diName {
		t.Errorf("labels = %v, want %v", l, want)
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("no error, want %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func TestFailureBeforeWritingKeepsInventory(t *testing.T) {
	old := managedresource.ManagedResourceStatusList{managed("manage", "a")}
	res, err := apply.Apply(context.Background(), apply.Options{Client: kubetest.NewClient(nil), DeployItem: diName, UpdateStrategy: "update", ManagedResources: old,
		Manifests: []managedresource.Manifest{m("", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}")}})
	checkErr(t, err, "unable to get apiresource")
	if got := inventory(res.ManagedResources); got != "manage ConfigMap ns/a" {
		t.Errorf("inventory = %q, want the previous one", got)
	}
}
