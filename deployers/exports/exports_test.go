package exports_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/exports"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

var stored = kubetest.Objects(
	"apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: a}\ndata: {somekey: YWJj}",
	"apiVersion: v1\nkind: Secret\nmetadata: {name: s2, namespace: b}\ndata: {somekey: eHl6}",
	"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa, namespace: a}\nsecrets: [{name: s}, {name: s2, namespace: b}]",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: a}\nspec: {replicas: 3, template: {metadata: {labels: {app: x}}}}",
)

func export(key, path, kind, name string) managedresource.Export {
	apiVersion := "v1"
	if kind == "Deployment" {
		apiVersion = "apps/v1"
	}
	return managedresource.Export{Key: key, JSONPath: path, FromResource: &lsv1alpha1.TypedObjectReference{
		APIVersion: apiVersion, Kind: kind, ObjectReference: lsv1alpha1.ObjectReference{Name: name, Namespace: "a"}}}
}

func fromRef(e managedresource.Export, path string) managedresource.Export {
	e.FromObjectReference = &managedresource.FromObjectReference{APIVersion: "v1", Kind: "Secret", JSONPath: path}
	return e
}

func onTarget(e managedresource.Export, name string) managedresource.Export {
	e.TargetName = &name
	return e
}

func TestRead(t *testing.T) {
	remote := kubetest.NewClient(kubetest.Objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: a}\ndata: {url: http://x}"))
	secondary := func(_ context.Context, name string) (client.Client, error) {
		if name != "remote" {
			return nil, errors.New("unknown target " + name)
		}
		return remote, nil
	}
	tests := []struct {
		name        string
		exports     []managedresource.Export
		want        string
		wantPending string
	}{
		{name: "none", want: "null"},
		{name: "secret data stays base64", exports: []managedresource.Export{export("KeyA", ".data.somekey", "Secret", "s")}, want: `{"KeyA":"YWJj"}`},
		{name: "leading dot optional, int64 number", exports: []managedresource.Export{export("replicas", "spec.replicas", "Deployment", "d")}, want: `{"replicas":3}`},
		{name: "nested key and deep merge", exports: []managedresource.Export{
			export("a.b", ".data.somekey", "Secret", "s"),
			export("a.c", ".spec.template.metadata.labels", "Deployment", "d"),
		}, want: `{"a":{"b":"YWJj","c":{"app":"x"}}}`},
		{name: "later wins", exports: []managedresource.Export{
			export("k", ".data.somekey", "Secret", "s"), export("k", ".spec.replicas", "Deployment", "d"),
		}, want: `{"k":3}`},
		{name: "fromObjectRef default namespace", exports: []managedresource.Export{fromRef(export("KeyB", ".secrets[0]", "ServiceAccount", "sa"), ".data.somekey")}, want: `{"KeyB":"YWJj"}`},
		{name: "fromObjectRef with namespace", exports: []managedresource.Export{fromRef(export("KeyB", ".secrets[1]", "ServiceAccount", "sa"), ".data.somekey")}, want: `{"KeyB":"eHl6"}`},
		{name: "fromObjectRef not a reference", exports: []managedresource.Export{fromRef(export("KeyC", ".data.somekey", "Secret", "s"), ".data")}, wantPending: "KeyC"},
		{name: "skips without fromResource", exports: []managedresource.Export{{Key: "v", JSONPath: ".Values.x"}}, want: "null"},
		{name: "missing resource is pending", exports: []managedresource.Export{export("x", ".data", "Secret", "missing")}, wantPending: "x"},
		{name: "missing path is pending", exports: []managedresource.Export{export("ok", ".data.somekey", "Secret", "s"), export("y", ".data.nope", "Secret", "s")}, wantPending: "y"},
		{name: "secondary target", exports: []managedresource.Export{onTarget(export("url", ".data.url", "ConfigMap", "cm"), "remote")}, want: `{"url":"http://x"}`},
		{name: "unknown secondary target", exports: []managedresource.Export{onTarget(export("url", ".data.url", "ConfigMap", "cm"), "nope")}, wantPending: "url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kubetest.NewClient(stored)
			got, err := exports.Read(context.Background(), c, &managedresource.Exports{Exports: tt.exports}, secondary)
			if tt.wantPending != "" {
				var pe *exports.PendingError
				if !errors.As(err, &pe) || pe.Key != tt.wantPending {
					t.Fatalf("err = %v, want pending export %q", err, tt.wantPending)
				}
				if want := "deployer: during export - key: " + tt.wantPending; pe.Checkpoint() != want {
					t.Errorf("checkpoint = %q, want %q", pe.Checkpoint(), want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(got)
			if string(data) != tt.want {
				t.Errorf("exports = %s, want %s", data, tt.want)
			}
		})
	}
}

func TestConstruct(t *testing.T) {
	tests := []struct {
		key, want, wantErr string
	}{
		{key: "a", want: `{"a":1}`},
		{key: ".a.b.c", want: `{"a":{"b":{"c":1}}}`},
		{key: "a[0]", wantErr: `[].a: Unsupported value: 1: supported values: "NodeList", "NodeField"`},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, err := exports.Construct(tt.key, 1)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			data, _ := json.Marshal(got)
			if err != nil || string(data) != tt.want {
				t.Errorf("Construct = %s, %v; want %s", data, err, tt.want)
			}
		})
	}
}
