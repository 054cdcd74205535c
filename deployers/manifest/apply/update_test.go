package apply_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func TestUpdateStrategies(t *testing.T) {
	const live = `apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns, labels: {foreign: f}, annotations: {note: live}}
data: {a: live, b: live}`
	const manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {a: new, c: new}"
	tests := []struct {
		strategy   manifestv1alpha2.UpdateStrategy
		wantData   string
		wantLabels string
		wantNote   string
		wantWrite  string
		wantErr    string
	}{
		// no strategy (a configuration without apiVersion gets no default):
		// not valid, as in Landscaper's applier
		{strategy: "", wantData: `{"a":"live","b":"live"}`, wantLabels: `{"foreign":"f"}`, wantNote: "live", wantErr: " is not a valid update strategy"},
		{strategy: "update", wantData: `{"a":"new","c":"new"}`, wantLabels: `{"` + apply.DeployItemLabel + `":"di"}`, wantWrite: "update ConfigMap ns/a"},
		{strategy: "patch", wantData: `{"a":"new","c":"new"}`, wantLabels: `{"` + apply.DeployItemLabel + `":"di"}`, wantWrite: "patch ConfigMap ns/a"},
		{strategy: "merge", wantData: `{"a":"live","b":"live","c":"new"}`, wantLabels: `{"foreign":"f","` + apply.DeployItemLabel + `":"di"}`, wantNote: "live", wantWrite: "update ConfigMap ns/a"},
		{strategy: "mergeOverwrite", wantData: `{"a":"new","b":"live","c":"new"}`, wantLabels: `{"foreign":"f","` + apply.DeployItemLabel + `":"di"}`, wantNote: "live", wantWrite: "update ConfigMap ns/a"},
		{strategy: "replace", wantData: `{"a":"live","b":"live"}`, wantLabels: `{"foreign":"f"}`, wantNote: "live", wantErr: "replace is not a valid update strategy"},
	}
	for _, tt := range tests {
		t.Run(string(tt.strategy), func(t *testing.T) {
			c := newRecorder([]string{live}, "")
			res, err := apply.Apply(context.Background(), apply.Options{Client: c, DeployItem: diName, UpdateStrategy: tt.strategy,
				Manifests: []managedresource.Manifest{m("manage", manifest)}})
			checkErr(t, err, tt.wantErr)
			if len(res.ManagedResources) != 1 {
				t.Errorf("inventory = %v, want the object recorded even when its update fails", res.ManagedResources)
			}
			got := kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a")
			if s := jsonOf(got.Object["data"]); s != tt.wantData {
				t.Errorf("data = %s, want %s", s, tt.wantData)
			}
			if s := jsonOf(got.GetLabels()); s != tt.wantLabels {
				t.Errorf("labels = %s, want %s", s, tt.wantLabels)
			}
			if note := got.GetAnnotations()["note"]; note != tt.wantNote {
				t.Errorf("annotation note = %q, want %q", note, tt.wantNote)
			}
			if w := writes(c); w != tt.wantWrite {
				t.Errorf("writes = %q, want %q", w, tt.wantWrite)
			}
		})
	}
}

func TestCopyRequiredFields(t *testing.T) {
	tests := []struct {
		name, live, obj, path, want string
	}{
		{name: "service clusterIP", live: "apiVersion: v1\nkind: Service\nmetadata: {name: s, resourceVersion: '7'}\nspec: {clusterIP: 10.0.0.1}",
			obj: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}", path: "spec.clusterIP", want: `"10.0.0.1"`},
		{name: "resourceVersion", live: "apiVersion: v1\nkind: Service\nmetadata: {name: s, resourceVersion: '7'}",
			obj: "apiVersion: v1\nkind: Service\nmetadata: {name: s}", path: "metadata.resourceVersion", want: `"7"`},
		{name: "job selector", live: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {selector: {matchLabels: {uid: x}}, template: {metadata: {labels: {uid: x, a: b}}}}",
			obj: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {template: {metadata: {labels: {a: c}}}}", path: "spec.template.metadata.labels", want: `{"a":"b","uid":"x"}`},
		{name: "serviceaccount secrets kept", live: "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\nsecrets: [{name: t}]",
			obj: "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}", path: "secrets", want: `[{"name":"t"}]`},
		{name: "serviceaccount secrets of manifest win", live: "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\nsecrets: [{name: t}]",
			obj: "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\nsecrets: [{name: mine}]", path: "secrets", want: `[{"name":"mine"}]`},
		{name: "configmap data untouched", live: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}", path: "data", want: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := kubetest.Object(tt.obj)
			if err := apply.CopyRequiredFields(kubetest.Object(tt.live), obj); err != nil {
				t.Fatal(err)
			}
			v, _, _ := unstructured.NestedFieldNoCopy(obj.Object, strings.Split(tt.path, ".")...)
			if s := jsonOf(v); s != tt.want {
				t.Errorf("%s = %s, want %s", tt.path, s, tt.want)
			}
		})
	}
	if err := apply.CopyRequiredFields(kubetest.Object("apiVersion: v1\nkind: Service\nmetadata: {name: s}"), kubetest.Object("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}")); err == nil {
		t.Error("want an error for different kinds")
	}
}

func jsonOf(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func writes(c *recorder) string { return strings.Join(c.writes, "|") }
