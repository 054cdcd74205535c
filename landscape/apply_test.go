package landscape

import (
	"context"
	"reflect"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// TestApplyPutsBackOperation checks that Apply, as kubectl apply's three-way
// merge, sets the file's operation annotation again once a controller has
// removed it, and says so in Operated; a file without one leaves the live
// annotations as they are.
func TestApplyPutsBackOperation(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "demo"}
	file := func(annotations map[string]string) []fakecluster.Object {
		return []fakecluster.Object{&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{
			Namespace: key.Namespace, Name: key.Name, Annotations: annotations}}}
	}
	withOp := map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.ReconcileOperation), "team": "a"}

	res, err := Apply(ctx, c, file(withOp), nil)
	if err != nil || len(res.Created) != 1 || len(res.Operated) != 0 {
		t.Fatalf("create: %+v, %v", res, err)
	}
	res, err = Apply(ctx, c, file(withOp), nil)
	if err != nil || len(res.Unchanged) != 1 || len(res.Operated) != 0 {
		t.Fatalf("annotation still there: want unchanged, got %+v, %v", res, err)
	}

	// The controller starts the job and removes the annotation.
	live := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	delete(live.Annotations, lsv1alpha1.OperationAnnotation)
	live.Annotations["added-live"] = "x"
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}

	res, err = Apply(ctx, c, file(withOp), nil)
	want := ObjectRef{Kind: "Installation", Namespace: "default", Name: "demo"}
	if err != nil || len(res.Updated) != 1 || len(res.Operated) != 1 || res.Operated[0] != want || len(res.ChangedRoots) != 0 {
		t.Fatalf("re-apply: want updated and operated, no spec change, got %+v, %v", res, err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if got := live.Annotations[lsv1alpha1.OperationAnnotation]; got != string(lsv1alpha1.ReconcileOperation) {
		t.Errorf("operation annotation = %q, want reconcile", got)
	}
	if live.Annotations["added-live"] != "x" {
		t.Errorf("an annotation the file does not have was dropped: %v", live.Annotations)
	}

	// Removed again, then a file without it: nothing to apply.
	delete(live.Annotations, lsv1alpha1.OperationAnnotation)
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}
	res, err = Apply(ctx, c, file(map[string]string{"team": "a"}), nil)
	if err != nil || len(res.Unchanged) != 1 || len(res.Operated) != 0 {
		t.Fatalf("file without the annotation: want unchanged, got %+v, %v", res, err)
	}
}

// TestApplyRemovesWhatLastApplySet checks that Apply, with a record of the
// last apply, does what kubectl apply's three-way merge does: labels,
// annotations and spec fields the last apply set and the file no longer
// has are removed; what others set (a controller's labels, annotations,
// finalizers, spec fields) is kept.
func TestApplyRemovesWhatLastApplySet(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "demo"}
	ref := ObjectRef{Kind: "Installation", Namespace: "default", Name: "demo"}
	inst := func(labels, annotations map[string]string, imports ...string) []fakecluster.Object {
		obj := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name,
			Labels: labels, Annotations: annotations}}
		for _, name := range imports {
			obj.Spec.Imports.Data = append(obj.Spec.Imports.Data, lsv1alpha1.DataImport{Name: name, DataRef: name})
		}
		return []fakecluster.Object{obj}
	}
	last := LastApplied{}
	res, err := Apply(ctx, c, inst(map[string]string{"user": "a", "team": "x"},
		map[string]string{lsv1alpha1.DeleteWithoutUninstallAnnotation: "true", "note": "n"}, "a", "b"), last)
	if err != nil || len(res.Created) != 1 {
		t.Fatalf("create: %+v, %v", res, err)
	}
	live := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if rec := last[ref]; rec.UID == "" || rec.UID != live.UID || len(rec.Config) == 0 {
		t.Fatalf("record of the creation: %+v, live uid %s", rec, live.UID)
	}
	// A controller adds its own.
	live.Labels["landscaper.gardener.cloud/own"] = "l"
	live.Annotations["landscaper.gardener.cloud/own"] = "a"
	live.Finalizers = append(live.Finalizers, "finalizer.landscaper.gardener.cloud")
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}

	res, err = Apply(ctx, c, inst(map[string]string{"team": "x"}, map[string]string{"note": "n"}, "a"), last)
	if err != nil || len(res.Updated) != 1 || len(res.ChangedRoots) != 1 {
		t.Fatalf("re-apply without the label, the annotation and an import: want updated with a spec change, got %+v, %v", res, err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	wantLabels := map[string]string{"team": "x", "landscaper.gardener.cloud/own": "l"}
	wantAnnotations := map[string]string{"note": "n", "landscaper.gardener.cloud/own": "a"}
	if !reflect.DeepEqual(live.Labels, wantLabels) || !reflect.DeepEqual(live.Annotations, wantAnnotations) {
		t.Errorf("labels %v, annotations %v; want %v, %v", live.Labels, live.Annotations, wantLabels, wantAnnotations)
	}
	if len(live.Finalizers) != 1 {
		t.Errorf("finalizers %v: the controller's was removed", live.Finalizers)
	}
	if len(live.Spec.Imports.Data) != 1 || live.Spec.Imports.Data[0].Name != "a" {
		t.Errorf("imports %+v, want only a", live.Spec.Imports.Data)
	}

	// The same file again: nothing to do.
	res, err = Apply(ctx, c, inst(map[string]string{"team": "x"}, map[string]string{"note": "n"}, "a"), last)
	if err != nil || len(res.Unchanged) != 1 {
		t.Fatalf("same file: want unchanged, got %+v, %v", res, err)
	}

	// No annotations at all in the file: only those of the last apply go
	// (kubectl's own record keeps the map); no labels at all: the map goes,
	// as kubectl's merge patch "labels": null removes it.
	res, err = Apply(ctx, c, inst(nil, nil, "a"), last)
	if err != nil || len(res.Updated) != 1 || len(res.ChangedRoots) != 0 {
		t.Fatalf("file without labels and annotations: %+v, %v", res, err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if len(live.Labels) != 0 || !reflect.DeepEqual(live.Annotations, map[string]string{"landscaper.gardener.cloud/own": "a"}) {
		t.Errorf("labels %v, annotations %v", live.Labels, live.Annotations)
	}
}

// TestApplyWithoutRecordKeeps checks that an object without a record of its
// last apply (a state saved before lscli kept them), or with the record of
// another object of its name (deleted and created again), keeps its labels
// and annotations the file no longer has, as before; the record is then
// taken for the next apply.
func TestApplyWithoutRecordKeeps(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "demo"}
	ref := ObjectRef{Kind: "Installation", Namespace: "default", Name: "demo"}
	inst := func(labels map[string]string) []fakecluster.Object {
		return []fakecluster.Object{&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, Labels: labels}}}
	}
	if _, err := Apply(ctx, c, inst(map[string]string{"a": "1", "b": "2"}), nil); err != nil {
		t.Fatal(err)
	}
	stale, err := appliedConfig(inst(map[string]string{"a": "1", "b": "2"})[0])
	if err != nil {
		t.Fatal(err)
	}
	last := LastApplied{ref: {UID: "another", Config: stale}}
	if _, err := Apply(ctx, c, inst(map[string]string{"a": "1"}), last); err != nil {
		t.Fatal(err)
	}
	live := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(live.Labels, map[string]string{"a": "1", "b": "2"}) {
		t.Errorf("without a record of its own: labels %v, want both kept", live.Labels)
	}
	if last[ref].UID != live.UID {
		t.Fatalf("record %+v not taken for uid %s", last[ref], live.UID)
	}
	live.Labels["b"] = "2" // set by hand again: the record says the file does not set it
	if _, err := Apply(ctx, c, inst(nil), last); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if len(live.Labels) != 0 {
		t.Errorf("with the record: labels %v, want none", live.Labels)
	}
}

// TestApplyKeepsSpecFieldsOfOthers checks the three-way merge of data and
// spec: a key a controller added is kept, one the last apply set and the
// file dropped goes, and an operation annotation of the file is put back.
func TestApplyKeepsSpecFieldsOfOthers(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "cm"}
	cm := func(data map[string]string) []fakecluster.Object {
		return []fakecluster.Object{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}, Data: data}}
	}
	last := LastApplied{}
	if _, err := Apply(ctx, c, cm(map[string]string{"a": "1", "b": "2"}), last); err != nil {
		t.Fatal(err)
	}
	live := &corev1.ConfigMap{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	live.Data["other"] = "o"
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(ctx, c, cm(map[string]string{"a": "1", "c": "3"}), last)
	if err != nil || len(res.Updated) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a": "1", "c": "3", "other": "o"}; !reflect.DeepEqual(live.Data, want) {
		t.Errorf("data %v, want %v", live.Data, want)
	}

	// The operation annotation of a file comes back with a record too.
	ik := types.NamespacedName{Namespace: "default", Name: "demo"}
	withOp := []fakecluster.Object{&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: ik.Namespace, Name: ik.Name,
		Annotations: map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.ReconcileOperation)}}}}
	if _, err := Apply(ctx, c, withOp, last); err != nil {
		t.Fatal(err)
	}
	inst := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, ik, inst); err != nil {
		t.Fatal(err)
	}
	delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
	if err := c.Update(ctx, inst); err != nil {
		t.Fatal(err)
	}
	res, err = Apply(ctx, c, withOp, last)
	if err != nil || len(res.Operated) != 1 {
		t.Fatalf("want operated, got %+v, %v", res, err)
	}
}

// TestApplyMergeKeepsLargeNumbers: a DataObject's large integers survive
// the three-way merge (no float64 on the way), also where the merge keeps
// a key a controller added and the data is decoded from the merge.
func TestApplyMergeKeepsLargeNumbers(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "big"}
	do := func(data string) []fakecluster.Object {
		obj := &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
		obj.Data.RawMessage = []byte(data)
		return []fakecluster.Object{obj}
	}
	last := LastApplied{}
	if _, err := Apply(ctx, c, do(`{"n":12345678901234567891,"gone":1}`), last); err != nil {
		t.Fatal(err)
	}
	live := &lsv1alpha1.DataObject{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	live.Labels = map[string]string{"by": "controller"}
	live.Data.RawMessage = []byte(`{"n":12345678901234567891,"gone":1,"ctl":98765432109876543211}`)
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, c, do(`{"n":12345678901234567891}`), last); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	want := `{"ctl":98765432109876543211,"n":12345678901234567891}`
	if got := string(live.Data.RawMessage); got != want || live.Labels["by"] != "controller" {
		t.Errorf("data %s, labels %v", got, live.Labels)
	}
}
