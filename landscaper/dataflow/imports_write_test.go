package dataflow

import (
	"context"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
)

func TestWriteImports(t *testing.T) {
	c := newCluster(t, sources)
	inst := installation(t, c, "parent", `imports:
  data: [{name: cfg, dataRef: config}]
  targets:
  - {name: one, target: blue}
  - {name: list, targets: [green, blue]}
  - {name: map, targetMap: {b: blue}}`, blueprintImports(`- {name: cfg, schema: {type: object}}
- {name: one, type: target, targetType: kubernetes-cluster}
- {name: list, type: targetList, targetType: kubernetes-cluster}
- {name: map, type: targetMap, targetType: landscaper.gardener.cloud/kubernetes-cluster}`))
	imps := resolve(t, c, inst)
	if err := WriteImports(context.Background(), c, inst, imps); err != nil {
		t.Fatal(err)
	}
	const ctx = "Inst.parent"
	labels := func(key string) map[string]string {
		return map[string]string{lsv1alpha1.DataObjectContextLabel: ctx, lsv1alpha1.DataObjectSourceLabel: ctx,
			lsv1alpha1.DataObjectSourceTypeLabel: "import", lsv1alpha1.DataObjectKeyLabel: key, lsv1alpha1.DataObjectJobIDLabel: "job-1"}
	}
	do := &lsv1alpha1.DataObject{}
	get(t, c, helper.GenerateDataObjectName(ctx, "cfg"), do)
	checkLabels(t, do.Labels, labels("cfg"))
	if toJSON(do.Data) != `{"name":"app","replicas":2}` || do.Annotations[lsv1alpha1.DataObjectHashAnnotation] == "" {
		t.Errorf("DataObject = %s, annotations %v", toJSON(do.Data), do.Annotations)
	}
	if len(do.OwnerReferences) != 1 || do.OwnerReferences[0].UID != inst.UID || do.OwnerReferences[0].Controller != nil {
		t.Errorf("owner references = %+v, want one (not controller) to the installation", do.OwnerReferences)
	}
	tgt := &lsv1alpha1.Target{}
	// A single target's copy keeps the Target's own labels and annotations
	// (Landscaper's TargetExtension.Apply); the elements of a list or map
	// get only the data labels and the hash (TargetExtensionList.Apply,
	// TargetMapExtension.Apply).
	get(t, c, helper.GenerateDataObjectName(ctx, "one"), tgt)
	checkLabels(t, tgt.Labels, labels("one"))
	if tgt.Labels["team"] != "blue" || tgt.Annotations["owner"] != "alice" {
		t.Errorf("single target copy: labels %v, annotations %v; want blue's own team and owner too", tgt.Labels, tgt.Annotations)
	}
	ownMeta := func(what string, tgt *lsv1alpha1.Target) {
		t.Helper()
		if _, ok := tgt.Labels["team"]; ok || len(tgt.Annotations) != 1 || tgt.Annotations[lsv1alpha1.DataObjectHashAnnotation] == "" {
			t.Errorf("%s: labels %v, annotations %v; want only the data labels and the hash", what, tgt.Labels, tgt.Annotations)
		}
	}
	for i, want := range []string{"g", "b"} {
		get(t, c, helper.GenerateDataObjectNameWithIndex(ctx, "list", i), tgt)
		l := labels("list")
		l[lsv1alpha1.DataObjectIndexLabel] = fmt.Sprint(i)
		checkLabels(t, tgt.Labels, l)
		ownMeta(fmt.Sprintf("list[%d]", i), tgt)
		if string(tgt.Spec.Configuration.RawMessage) != `{"kubeconfig":"`+want+`"}` {
			t.Errorf("list[%d] config = %s", i, tgt.Spec.Configuration.RawMessage)
		}
	}
	get(t, c, helper.GenerateDataObjectName(ctx, "map[b]"), tgt)
	l := labels("map")
	l[lsv1alpha1.DataObjectTargetMapKeyLabel] = "b"
	checkLabels(t, tgt.Labels, l)
	ownMeta("map[b]", tgt)
}

func checkLabels(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("label %s = %q, want %q", k, got[k], v)
		}
	}
}

// TestChildReadsParentImports checks the whole way from a parent's import to
// its subinstallation: the child imports by the parent's import name.
func TestChildReadsParentImports(t *testing.T) {
	c := newCluster(t, sources)
	parent := installation(t, c, "parent", `imports:
  data: [{name: cfg, dataRef: config}]
  targets: [{name: list, targets: [green, blue]}, {name: map, targetMap: {b: blue, g: green}}]`,
		blueprintImports("- {name: cfg, schema: {}}\n- {name: list, type: targetList, targetType: kubernetes-cluster}\n- {name: map, type: targetMap, targetType: landscaper.gardener.cloud/kubernetes-cluster}"))
	if err := WriteImports(context.Background(), c, parent, resolve(t, c, parent)); err != nil {
		t.Fatal(err)
	}
	child := installation(t, c, "child", `imports:
  data: [{name: settings, dataRef: cfg}]
  targets: [{name: clusters, targetListRef: list}, {name: slots, targetMapRef: map}]`,
		blueprintImports("- {name: settings, schema: {}}\n- {name: clusters, type: targetList, targetType: kubernetes-cluster}\n- {name: slots, type: targetMap, targetType: landscaper.gardener.cloud/kubernetes-cluster}"))
	childOf(t, c, child, parent)
	imps := resolve(t, c, child)
	if toJSON(imps.Values["settings"]) != `{"name":"app","replicas":2}` {
		t.Errorf("settings = %s", toJSON(imps.Values["settings"]))
	}
	list := imps.Values["clusters"].([]any)
	if len(list) != 2 || toJSON(list[0].(map[string]any)["spec"]) != `{"config":{"kubeconfig":"g"},"type":"landscaper.gardener.cloud/kubernetes-cluster"}` {
		t.Errorf("clusters = %s, want green then blue", toJSON(list))
	}
	if m := imps.Values["slots"].(map[string]any); len(m) != 2 || m["b"] == nil {
		t.Errorf("slots = %s", toJSON(m))
	}
}
