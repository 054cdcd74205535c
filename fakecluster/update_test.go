package fakecluster

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// writeCase creates obj, applies change to a fresh copy of the stored object
// and writes it back with write.
type writeCase struct {
	name    string
	obj     Object
	change  func(Object)
	wantGen int64
	// wantWrite is true when the write must bump resourceVersion and emit
	// exactly one Modified event.
	wantWrite bool
	check     func(t *testing.T, stored Object)
}

func runWriteCases(t *testing.T, tests []writeCase, write func(*Cluster, Object) error) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			mustCreate(t, c, tt.obj)
			rec := &recorder{}
			c.Watch(rec.watch)
			rv := c.ResourceVersion()
			obj := mustGet(t, c, tt.obj.GetNamespace(), tt.obj.GetName(), tt.obj.DeepCopyObject().(Object))
			tt.change(obj)
			if err := write(c, obj); err != nil {
				t.Fatalf("write error = %v", err)
			}
			stored := mustGet(t, c, tt.obj.GetNamespace(), tt.obj.GetName(), tt.obj.DeepCopyObject().(Object))
			if stored.GetGeneration() != tt.wantGen || obj.GetGeneration() != tt.wantGen {
				t.Errorf("generation = %d (returned %d), want %d", stored.GetGeneration(), obj.GetGeneration(), tt.wantGen)
			}
			wrote := c.ResourceVersion() != rv
			if wrote != tt.wantWrite || len(rec.events) != map[bool]int{true: 1}[tt.wantWrite] {
				t.Errorf("resourceVersion %d → %d, events %v; want a write: %v", rv, c.ResourceVersion(), rec.summary(), tt.wantWrite)
			}
			if obj.GetResourceVersion() != stored.GetResourceVersion() {
				t.Errorf("returned resourceVersion %q, stored %q", obj.GetResourceVersion(), stored.GetResourceVersion())
			}
			if tt.check != nil {
				tt.check(t, stored)
			}
		})
	}
}

func TestUpdateGeneration(t *testing.T) {
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: "ns", Name: name} }
	tests := []writeCase{
		{name: "installation spec", obj: inst("ns", "i"), wantGen: 2, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.Installation).Spec.Context = "other" }},
		{name: "installation labels only", obj: inst("ns", "i"), wantGen: 1, wantWrite: true,
			change: func(o Object) { o.SetLabels(map[string]string{"a": "b"}) }},
		{name: "installation finalizer only", obj: inst("ns", "i"), wantGen: 1, wantWrite: true,
			change: func(o Object) { o.SetFinalizers([]string{"f"}) }},
		{name: "installation status is ignored", obj: inst("ns", "i"), wantGen: 1, wantWrite: false,
			change: func(o Object) { o.(*lsv1alpha1.Installation).Status.JobID = "job" },
			check: func(t *testing.T, stored Object) {
				if id := stored.(*lsv1alpha1.Installation).Status.JobID; id != "" {
					t.Errorf("status.jobID = %q, want it unchanged", id)
				}
			}},
		{name: "installation unchanged", obj: inst("ns", "i"), wantGen: 1, wantWrite: false, change: func(Object) {}},
		{name: "nil and empty labels are the same", obj: inst("ns", "i"), wantGen: 1, wantWrite: false,
			change: func(o Object) { o.SetLabels(map[string]string{}) }},
		{name: "execution deploy items", obj: &lsv1alpha1.Execution{ObjectMeta: meta("e")}, wantGen: 2, wantWrite: true,
			change: func(o Object) {
				o.(*lsv1alpha1.Execution).Spec.DeployItems = lsv1alpha1.DeployItemTemplateList{{Name: "di", Type: "mock",
					Configuration: &runtime.RawExtension{Raw: []byte(`{"a":1}`)}}}
			}},
		{name: "deploy item spec", obj: &lsv1alpha1.DeployItem{ObjectMeta: meta("d")}, wantGen: 2, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.DeployItem).Spec.Type = "mock" }},
		{name: "data object data", obj: &lsv1alpha1.DataObject{ObjectMeta: meta("do")}, wantGen: 2, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.DataObject).Data = lsv1alpha1.NewAnyJSON([]byte(`"x"`)) }},
		{name: "target spec", obj: &lsv1alpha1.Target{ObjectMeta: meta("t")}, wantGen: 2, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.Target).Spec.Type = "landscaper.gardener.cloud/kubernetes-cluster" }},
		{name: "context configuration", obj: &lsv1alpha1.Context{ObjectMeta: meta("c")}, wantGen: 2, wantWrite: true,
			change: func(o Object) {
				o.(*lsv1alpha1.Context).RegistryPullSecrets = []corev1.LocalObjectReference{{Name: "pull"}}
			}},
		// Secrets and ConfigMaps have no generation in kube-apiserver: it
		// stays 0 whatever changes.
		{name: "secret data", obj: &corev1.Secret{ObjectMeta: meta("s")}, wantGen: 0, wantWrite: true,
			change: func(o Object) { o.(*corev1.Secret).Data = map[string][]byte{"k": []byte("v")} }},
		{name: "secret type", obj: &corev1.Secret{ObjectMeta: meta("s")}, wantGen: 0, wantWrite: true,
			change: func(o Object) { o.(*corev1.Secret).Type = corev1.SecretTypeOpaque }},
		{name: "secret annotations", obj: &corev1.Secret{ObjectMeta: meta("s")}, wantGen: 0, wantWrite: true,
			change: func(o Object) { o.SetAnnotations(map[string]string{"a": "b"}) }},
		{name: "configmap data", obj: &corev1.ConfigMap{ObjectMeta: meta("cm")}, wantGen: 0, wantWrite: true,
			change: func(o Object) { o.(*corev1.ConfigMap).Data = map[string]string{"k": "v"} }},
		{name: "pod spec", obj: &corev1.Pod{ObjectMeta: meta("p")}, wantGen: 2, wantWrite: true,
			change: func(o Object) { o.(*corev1.Pod).Spec.NodeName = "n" }},
	}
	runWriteCases(t, tests, func(c *Cluster, o Object) error { return c.Update(context.Background(), o) })
}

func TestUpdateKeepsServerFields(t *testing.T) {
	c, _ := newTestCluster(t)
	orig := inst("ns", "i")
	mustCreate(t, c, orig)
	obj := orig.DeepCopy()
	later := metav1.NewTime(epoch.Add(time.Hour))
	obj.CreationTimestamp = later
	obj.Generation = 42
	obj.DeletionTimestamp = &later
	obj.Spec.Context = "other"
	if err := c.Update(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
	got := mustGet(t, c, "ns", "i", &lsv1alpha1.Installation{})
	if !got.CreationTimestamp.Equal(&orig.CreationTimestamp) || got.Generation != 2 || got.DeletionTimestamp != nil ||
		got.UID != orig.UID || got.ResourceVersion != "2" {
		t.Errorf("server fields = %v gen %d del %v uid %s rv %s; want creation %v gen 2 del nil uid %s rv 2",
			got.CreationTimestamp, got.Generation, got.DeletionTimestamp, got.UID, got.ResourceVersion,
			orig.CreationTimestamp, orig.UID)
	}
}

func TestUpdateStatus(t *testing.T) {
	tests := []writeCase{
		{name: "installation status", obj: inst("ns", "i"), wantGen: 1, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.Installation).Status.JobID = "job" },
			check: func(t *testing.T, stored Object) {
				if id := stored.(*lsv1alpha1.Installation).Status.JobID; id != "job" {
					t.Errorf("status.jobID = %q, want job", id)
				}
			}},
		{name: "spec and metadata are ignored", obj: inst("ns", "i"), wantGen: 1, wantWrite: true,
			change: func(o Object) {
				i := o.(*lsv1alpha1.Installation)
				i.Spec.Context, i.Labels, i.Status.JobID = "other", map[string]string{"a": "b"}, "job"
			},
			check: func(t *testing.T, stored Object) {
				i := stored.(*lsv1alpha1.Installation)
				if i.Spec.Context != "" || len(i.Labels) != 0 || i.Status.JobID != "job" {
					t.Errorf("stored context %q labels %v jobID %q; want only the status changed", i.Spec.Context, i.Labels, i.Status.JobID)
				}
			}},
		{name: "only spec changed is a no-op", obj: inst("ns", "i"), wantGen: 1, wantWrite: false,
			change: func(o Object) { o.(*lsv1alpha1.Installation).Spec.Context = "other" }},
		{name: "deploy item phase", obj: &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"}},
			wantGen: 1, wantWrite: true,
			change: func(o Object) { o.(*lsv1alpha1.DeployItem).Status.Phase = lsv1alpha1.DeployItemPhases.Succeeded }},
		{name: "execution unchanged", obj: &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "e"}},
			wantGen: 1, wantWrite: false, change: func(Object) {}},
	}
	runWriteCases(t, tests, func(c *Cluster, o Object) error { return c.UpdateStatus(context.Background(), o) })
}

func TestUpdateErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  bool
		obj     func(stored *lsv1alpha1.Installation) Object
		wantErr func(error) bool
		errText string
	}{
		{name: "stale resourceVersion", obj: func(s *lsv1alpha1.Installation) Object { s.ResourceVersion = "1"; return s },
			wantErr: apierrors.IsConflict, errText: `Operation cannot be fulfilled on installations.landscaper.gardener.cloud "i"`},
		{name: "stale resourceVersion, status", status: true,
			obj:     func(s *lsv1alpha1.Installation) Object { s.ResourceVersion = "1"; return s },
			wantErr: apierrors.IsConflict, errText: "the object has been modified"},
		{name: "empty resourceVersion", obj: func(s *lsv1alpha1.Installation) Object { s.ResourceVersion = ""; return s },
			wantErr: apierrors.IsInvalid, errText: "metadata.resourceVersion: Required value"},
		{name: "other uid", obj: func(s *lsv1alpha1.Installation) Object { s.UID = "other"; return s },
			wantErr: apierrors.IsConflict, errText: "precondition failed: uid other"},
		{name: "missing object", obj: func(s *lsv1alpha1.Installation) Object { s.Name = "missing"; return s },
			wantErr: apierrors.IsNotFound, errText: `"missing" not found`},
		{name: "missing object, status", status: true,
			obj:     func(s *lsv1alpha1.Installation) Object { s.Name = "missing"; return s },
			wantErr: apierrors.IsNotFound, errText: `"missing" not found`},
		{name: "status of a kind without status", status: true,
			obj: func(*lsv1alpha1.Installation) Object {
				return &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "t", ResourceVersion: "1"}}
			},
			wantErr: apierrors.IsBadRequest, errText: "kind Target has no status subresource"},
		{name: "invalid label", obj: func(s *lsv1alpha1.Installation) Object {
			s.Labels = map[string]string{"k": "-v"}
			return s
		}, wantErr: apierrors.IsInvalid, errText: `metadata.labels: Invalid value: "-v"`},
		{name: "new finalizer while deleting", obj: func(s *lsv1alpha1.Installation) Object {
			s.Finalizers = append(s.Finalizers, "other")
			return s
		}, wantErr: apierrors.IsInvalid, errText: `no new finalizers can be added if the object is being deleted, found new finalizer "other"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			ctx := context.Background()
			mustCreate(t, c, inst("ns", "i", withFinalizer("f")))
			if err := c.Delete(ctx, inst("ns", "i")); err != nil {
				t.Fatal(err)
			}
			obj := tt.obj(mustGet(t, c, "ns", "i", &lsv1alpha1.Installation{}))
			rv := c.ResourceVersion()
			write := c.Update
			if tt.status {
				write = c.UpdateStatus
			}
			err := write(ctx, obj)
			if err == nil || !tt.wantErr(err) || !strings.Contains(err.Error(), tt.errText) {
				t.Fatalf("error = %v, want one containing %q", err, tt.errText)
			}
			if c.ResourceVersion() != rv {
				t.Errorf("resourceVersion %d → %d after a failed write", rv, c.ResourceVersion())
			}
		})
	}
}

// TestWrittenObjectsShareNothing: after Create, Update, UpdateStatus (a
// write and a no-op) and Get, the caller's object holds the stored object's
// values in memory of its own: changing its maps and slices in place
// changes nothing stored.
func TestWrittenObjectsShareNothing(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	newInst := func() *lsv1alpha1.Installation {
		i := inst("ns", "i")
		i.Labels = map[string]string{"l": "v"}
		i.Finalizers = []string{"f"}
		i.Spec.Imports.Data = []lsv1alpha1.DataImport{{Name: "a", DataRef: "b"}}
		i.Status.Conditions = []lsv1alpha1.Condition{{Type: "a"}}
		return i
	}
	mutate := func(i *lsv1alpha1.Installation) {
		i.Labels["l"] = "changed"
		i.Finalizers[0] = "changed"
		i.Spec.Imports.Data[0].DataRef = "changed"
		if len(i.Status.Conditions) > 0 {
			i.Status.Conditions[0].Type = "changed"
		}
	}
	stored := func() *lsv1alpha1.Installation {
		return mustGet(t, c, "ns", "i", &lsv1alpha1.Installation{})
	}
	check := func(step string, obj *lsv1alpha1.Installation) {
		t.Helper()
		want := stored()
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("%s: the caller holds %+v, stored %+v", step, obj, want)
		}
		mutate(obj)
		if got := stored(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: changing the caller's object changed the stored one: %+v", step, got)
		}
	}
	obj := newInst()
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
	check("create", obj)
	obj = stored()
	obj.Spec.Context = "other"
	if err := c.Update(ctx, obj); err != nil {
		t.Fatal(err)
	}
	check("update", obj)
	for _, status := range []string{"job", "job"} { // a write, then a no-op
		obj = stored()
		obj.Status.JobID = status
		if err := c.UpdateStatus(ctx, obj); err != nil {
			t.Fatal(err)
		}
		check("update status "+status, obj)
	}
	check("get", stored())
}
