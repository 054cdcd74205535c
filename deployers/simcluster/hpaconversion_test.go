package simcluster

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/state"
)

// TestHPAConversion converts HPAs between autoscaling/v1 and v2 as
// kube-apiserver 1.37 does (the expected annotations are what it answered
// for these objects): v1's CPU target is the first cpu metric's
// Utilization target; the other metrics and the behavior travel in
// annotations (the behavior in the internal type's Go field names); a v1
// HPA without metrics targets 80% CPU; a v1 write of what a v1 read gave
// brings the metrics back, the CPU one last.
func TestHPAConversion(t *testing.T) {
	s := newScheme()
	v2 := &autoscalingv2.HorizontalPodAutoscaler{}
	decodeInto(t, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default, annotations: {team: web}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  - type: External
    external: {metric: {name: q, selector: {matchLabels: {x: "z"}}}, target: {type: Value, value: "3"}}
  behavior:
    scaleUp: {tolerance: "0.05", stabilizationWindowSeconds: 10}
    scaleDown: {selectPolicy: Max, policies: [{type: Pods, value: 1, periodSeconds: 60}]}
`, v2)
	defaultHPA(v2)
	got, err := s.ConvertToVersion(v2, autoscalingv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	v1 := got.(*autoscalingv1.HorizontalPodAutoscaler)
	if p := v1.Spec.TargetCPUUtilizationPercentage; p == nil || *p != 60 {
		t.Errorf("targetCPUUtilizationPercentage = %v, want 60", p)
	}
	want := map[string]string{
		"team":                "web",
		hpaMetricsAnnotation:  `[{"type":"External","external":{"metricName":"q","metricSelector":{"matchLabels":{"x":"z"}},"targetValue":"3"}}]`,
		hpaBehaviorAnnotation: `{"ScaleUp":{"StabilizationWindowSeconds":10,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":"50m"},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}],"Tolerance":null}}`,
	}
	if !reflect.DeepEqual(v1.Annotations, want) {
		t.Errorf("v1 annotations:\n%v\nwant\n%v", v1.Annotations, want)
	}
	if v2.Annotations[hpaMetricsAnnotation] != "" {
		t.Error("the conversion changed its input's annotations")
	}

	back, err := s.ConvertToVersion(v1, autoscalingv2.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	b := back.(*autoscalingv2.HorizontalPodAutoscaler)
	wantBack := v2.DeepCopy()
	wantBack.Spec.Metrics = []autoscalingv2.MetricSpec{v2.Spec.Metrics[1], v2.Spec.Metrics[0]}
	if !reflect.DeepEqual(jsonOf(t, b), jsonOf(t, wantBack)) {
		t.Errorf("v1 back to v2:\n%s\nwant\n%s", jsonOf(t, b), jsonOf(t, wantBack))
	}

	bare := &autoscalingv1.HorizontalPodAutoscaler{}
	bare.Spec.MaxReplicas = 3
	got, err = s.ConvertToVersion(bare, autoscalingv2.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	if m := got.(*autoscalingv2.HorizontalPodAutoscaler).Spec.Metrics; len(m) != 1 || !isCPUUtilization(m[0]) || *m[0].Resource.Target.AverageUtilization != 80 {
		t.Errorf("v1 without a target in v2: metrics %s, want cpu 80%%", jsonOf(t, m))
	}
}

// TestHPAOneObject writes an HPA in autoscaling/v1, then in v2, and reads
// and deletes it in either version: one object, stored in v2.
func TestHPAOneObject(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
`)
	first := f.get("autoscaling/v2", "HorizontalPodAutoscaler", "default", "web")
	u := obj(t, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
`)
	u.SetResourceVersion(first.GetResourceVersion())
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v1", "v2"} {
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion("autoscaling/" + v)
		l.SetKind("HorizontalPodAutoscalerList")
		if err := f.c.List(ctx, l, client.InNamespace("default"), client.MatchingLabels{"app": "web"}); err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].GetUID() != first.GetUID() || l.Items[0].GetAPIVersion() != "autoscaling/"+v {
			t.Fatalf("list in %s: %d items, want 1 of uid %s", v, len(l.Items), first.GetUID())
		}
		if v == "v1" {
			if p, _, _ := unstructured.NestedInt64(l.Items[0].Object, "spec", "targetCPUUtilizationPercentage"); p != 60 {
				t.Errorf("v1 targetCPUUtilizationPercentage = %d, want 60", p)
			}
		}
	}
	if err := f.c.Delete(ctx, hpaNamed("v1", "default", "web")); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "web"}, hpaIn("v2")); err == nil {
		t.Error("the HPA deleted in v1 is still there in v2")
	}
}

// TestHPARestoreMovesV1 restores HPAs that an older lscli kept in
// autoscaling/v1 (one of them also in v2, as it kept both): they are
// moved to v2, the copy written last staying.
func TestHPARestoreMovesV1(t *testing.T) {
	hpa := func(version, name string, more string) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"autoscaling/` + version + `","kind":"HorizontalPodAutoscaler","metadata":{"name":"` + name +
			`","namespace":"default","uid":"` + version + `-` + name + `"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":5` + more + `}}`)
	}
	saved := []state.ClusterObject{
		{Cluster: "example/cluster", Object: hpa("v1", "old", `,"targetCPUUtilizationPercentage":50`)},
		{Cluster: "example/cluster", Object: hpa("v1", "both", `,"targetCPUUtilizationPercentage":50`)},
		{Cluster: "example/cluster", Object: hpa("v2", "both", `,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]`)},
	}
	data, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	g := newRestored(t, newFixture(t), data)
	g.c = g.client()
	old := g.get("autoscaling/v2", "HorizontalPodAutoscaler", "default", "old")
	if old.GetUID() != "v1-old" {
		t.Errorf("old: uid %s, want v1-old", old.GetUID())
	}
	both := g.get("autoscaling/v1", "HorizontalPodAutoscaler", "default", "both")
	if p, _, _ := unstructured.NestedInt64(both.Object, "spec", "targetCPUUtilizationPercentage"); both.GetUID() != "v2-both" || p != 70 {
		t.Errorf("both: uid %s, cpu %d; want the v2 copy (v2-both, 70)", both.GetUID(), p)
	}
	again, err := g.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range again {
		var u unstructured.Unstructured
		if err := json.Unmarshal(rec.Object, &u.Object); err != nil {
			t.Fatal(err)
		}
		if u.GetKind() == "HorizontalPodAutoscaler" && u.GetAPIVersion() != "autoscaling/v2" {
			t.Errorf("saved %s %s in %s", u.GetKind(), u.GetName(), u.GetAPIVersion())
		}
	}
}

// hpaNamed is an HPA ns/name of autoscaling/version.
func hpaNamed(version, ns, name string) *unstructured.Unstructured {
	u := hpaIn(version)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// decodeInto decodes the YAML manifest into the typed object out.
func decodeInto(t *testing.T, manifest string, out runtime.Object) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj(t, manifest).Object, out); err != nil {
		t.Fatal(err)
	}
}

// jsonOf is v as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
