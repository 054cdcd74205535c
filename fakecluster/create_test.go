package fakecluster

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/google/uuid"
	"github.com/lscli/lscli/internal/ids"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestCreate(t *testing.T) {
	marked := metav1.NewTime(epoch)
	tests := []struct {
		name  string
		seed  []Object
		obj   Object
		check func(t *testing.T, got Object)
	}{
		{name: "named object gets server fields", obj: inst("ns", "app"), check: func(t *testing.T, got Object) {
			if got.GetUID() == "" || got.GetResourceVersion() != "1" || got.GetGeneration() != 1 {
				t.Errorf("uid %q rv %q generation %d, want a uid, rv 1, generation 1",
					got.GetUID(), got.GetResourceVersion(), got.GetGeneration())
			}
			if ts := got.GetCreationTimestamp(); !ts.Time.Equal(epoch) {
				t.Errorf("creationTimestamp = %v, want %v", ts, epoch)
			}
			if gvk := got.GetObjectKind().GroupVersionKind(); gvk != lsv1alpha1.SchemeGroupVersion.WithKind("Installation") {
				t.Errorf("TypeMeta = %v, want landscaper v1alpha1 Installation", gvk)
			}
		}},
		{name: "generateName gets a five character suffix",
			obj: &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", GenerateName: "exec-"}},
			check: func(t *testing.T, got Object) {
				suffix, ok := strings.CutPrefix(got.GetName(), "exec-")
				if !ok || len(suffix) != 5 || strings.Trim(suffix, "bcdfghjklmnpqrstvwxz2456789") != "" {
					t.Errorf("name = %q, want exec- and 5 characters of the generateName alphabet", got.GetName())
				}
			}},
		{name: "long generateName is shortened to 58 characters",
			obj: inst("ns", "", func(i *lsv1alpha1.Installation) { i.GenerateName = strings.Repeat("a", 70) }),
			check: func(t *testing.T, got Object) {
				if n := len(got.GetName()); n != 63 {
					t.Errorf("len(name) = %d, want 63", n)
				}
			}},
		{name: "status and spec are kept, deletionTimestamp is cleared",
			obj: &lsv1alpha1.DeployItem{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "di", DeletionTimestamp: &marked},
				Spec:       lsv1alpha1.DeployItemSpec{Type: "landscaper.gardener.cloud/mock"},
				Status:     lsv1alpha1.DeployItemStatus{Phase: lsv1alpha1.DeployItemPhases.Succeeded},
			},
			check: func(t *testing.T, got Object) {
				di := got.(*lsv1alpha1.DeployItem)
				if di.Status.Phase != lsv1alpha1.DeployItemPhases.Succeeded || di.Spec.Type != "landscaper.gardener.cloud/mock" ||
					di.DeletionTimestamp != nil {
					t.Errorf("spec %+v status phase %q deletionTimestamp %v, want them as given, without deletionTimestamp",
						di.Spec, di.Status.Phase, di.DeletionTimestamp)
				}
			}},
		{name: "cluster-scoped kind drops the namespace",
			obj: &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Namespace: "ignored", Name: "ns"}},
			check: func(t *testing.T, got Object) {
				if got.GetNamespace() != "" {
					t.Errorf("namespace = %q, want empty", got.GetNamespace())
				}
			}},
		{name: "same name in another namespace", seed: []Object{inst("ns", "app")}, obj: inst("other", "app")},
		{name: "same name of another kind", seed: []Object{inst("ns", "app")},
			obj: &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "app"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			mustCreate(t, c, tt.seed...)
			if err := c.Create(context.Background(), tt.obj); err != nil {
				t.Fatalf("Create() error = %v", err)
			}
			if tt.check != nil {
				tt.check(t, tt.obj)
				tt.check(t, mustGet(t, c, tt.obj.GetNamespace(), tt.obj.GetName(), tt.obj.DeepCopyObject().(Object)))
			}
		})
	}
}

func TestCreateErrors(t *testing.T) {
	tests := []struct {
		name    string
		seed    []Object
		obj     Object
		wantErr func(error) bool
		errText string
	}{
		{name: "existing name", seed: []Object{inst("ns", "app")}, obj: inst("ns", "app"),
			wantErr: apierrors.IsAlreadyExists, errText: `installations.landscaper.gardener.cloud "app" already exists`},
		{name: "no name and no generateName", obj: inst("ns", ""),
			wantErr: apierrors.IsInvalid, errText: "metadata.name: Required value"},
		{name: "no namespace", obj: inst("", "app"),
			wantErr: apierrors.IsInvalid, errText: `Installation.landscaper.gardener.cloud "app" is invalid: metadata.namespace: Required value`},
		{name: "no namespace with generateName", obj: inst("", "", func(i *lsv1alpha1.Installation) { i.GenerateName = "app-" }),
			wantErr: apierrors.IsInvalid, errText: `"app-*" is invalid`},
		{name: "resourceVersion set", obj: inst("ns", "app", func(i *lsv1alpha1.Installation) { i.ResourceVersion = "5" }),
			wantErr: apierrors.IsBadRequest, errText: "resourceVersion must not be set"},
		{name: "name that is not a DNS subdomain", obj: inst("ns", "Web_app"),
			wantErr: apierrors.IsInvalid, errText: `Installation.landscaper.gardener.cloud "Web_app" is invalid: metadata.name: Invalid value: "Web_app": a lowercase RFC 1123 subdomain`},
		{name: "generated name that is not a DNS subdomain", obj: &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", GenerateName: "exec-Web-"}},
			wantErr: apierrors.IsInvalid, errText: `metadata.name: Invalid value: "exec-Web-`},
		{name: "label value too long", obj: inst("ns", "app", func(i *lsv1alpha1.Installation) { i.Labels = map[string]string{"k": strings.Repeat("v", 64)} }),
			wantErr: apierrors.IsInvalid, errText: `metadata.labels: Invalid value: "vvvv`},
		{name: "label value with a slash", obj: inst("ns", "app", func(i *lsv1alpha1.Installation) {
			i.Labels = map[string]string{"data.landscaper.gardener.cloud/key": "app/config"}
		}),
			wantErr: apierrors.IsInvalid, errText: `metadata.labels: Invalid value: "app/config": a valid label must be`},
		{name: "label key", obj: inst("ns", "app", func(i *lsv1alpha1.Installation) { i.Labels = map[string]string{"bad key!": "v"} }),
			wantErr: apierrors.IsInvalid, errText: `metadata.labels: Invalid value: "bad key!": name part must consist of`},
		{name: "unregistered type", obj: &unregistered{}, wantErr: func(err error) bool { return !apierrors.IsNotFound(err) },
			errText: "create /: kind of *fakecluster.unregistered: no kind is registered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			mustCreate(t, c, tt.seed...)
			rv := c.ResourceVersion()
			err := c.Create(context.Background(), tt.obj)
			if err == nil || !tt.wantErr(err) || !strings.Contains(err.Error(), tt.errText) {
				t.Fatalf("Create() error = %v, want one containing %q", err, tt.errText)
			}
			if c.ResourceVersion() != rv {
				t.Errorf("resourceVersion %d → %d after a failed create", rv, c.ResourceVersion())
			}
		})
	}
}

func TestCreateDeterministic(t *testing.T) {
	create := func(seed uint64) []string {
		c := New(Options{IDs: ids.NewSource(seed)})
		var out []string
		for range 3 {
			obj := inst("ns", "", func(i *lsv1alpha1.Installation) { i.GenerateName = "app-" })
			mustCreate(t, c, obj)
			out = append(out, obj.Name, string(obj.UID))
		}
		return out
	}
	tests := []struct {
		name      string
		a, b      uint64
		wantEqual bool
	}{
		{name: "same seed, same names and uids", a: 42, b: 42, wantEqual: true},
		{name: "other seed, other names and uids", a: 42, b: 43, wantEqual: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := create(tt.a), create(tt.b)
			if equal := strings.Join(a, ",") == strings.Join(b, ","); equal != tt.wantEqual {
				t.Errorf("seed %d: %v\nseed %d: %v\nequal = %v, want %v", tt.a, a, tt.b, b, equal, tt.wantEqual)
			}
			for i := 1; i < len(a); i += 2 {
				if id, err := uuid.Parse(a[i]); err != nil || id.Version() != 4 {
					t.Errorf("uid %q: version %v, error %v; want a version 4 UUID", a[i], id.Version(), err)
				}
			}
			if a[0] == a[2] || a[2] == a[4] {
				t.Errorf("names %v: the same generateName must give free names", a)
			}
		})
	}
}

// TestCreateNamesIndependent: an object's generated name and uid depend on
// its own identity (kind, namespace, generateName, controller owner), not on
// what else was created before it.
func TestCreateNamesIndependent(t *testing.T) {
	child := func(owner string) *lsv1alpha1.Installation {
		return inst("ns", "", func(i *lsv1alpha1.Installation) {
			i.GenerateName = "db-"
			yes := true
			i.OwnerReferences = []metav1.OwnerReference{{APIVersion: "landscaper.gardener.cloud/v1alpha1",
				Kind: "Installation", Name: owner, UID: types.UID(owner), Controller: &yes}}
		})
	}
	alone := New(Options{IDs: ids.NewSource(1)})
	a := child("app")
	mustCreate(t, alone, a)

	crowded := New(Options{IDs: ids.NewSource(1)})
	mustCreate(t, crowded, inst("ns", "other"))
	other := child("other")
	mustCreate(t, crowded, other)
	b := child("app")
	mustCreate(t, crowded, b)
	if a.Name != b.Name || a.UID != b.UID {
		t.Errorf("app's child is %s (%s) alone but %s (%s) after other objects; want the same", a.Name, a.UID, b.Name, b.UID)
	}
	if other.Name == b.Name {
		t.Errorf("children of different owners share the name %s", b.Name)
	}
}

func TestCreateTimestamps(t *testing.T) {
	tests := []struct {
		name string
		now  func() time.Time
		want time.Time
	}{
		{name: "default clock", want: DefaultNow},
		{name: "truncated to seconds, in UTC",
			now:  func() time.Time { return time.Date(2030, 5, 6, 9, 8, 7, 999_000_000, time.FixedZone("X", 3600)) },
			want: time.Date(2030, 5, 6, 8, 8, 7, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Options{Now: tt.now})
			obj := inst("ns", "app")
			mustCreate(t, c, obj)
			if got := obj.CreationTimestamp.Time; !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("creationTimestamp = %v, want %v", got, tt.want)
			}
		})
	}
}
