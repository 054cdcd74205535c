package state

import (
	"fmt"
	"reflect"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// epoch is the fixed start of virtual time in tests.
var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

const lsAPIVersion = "landscaper.gardener.cloud/v1alpha1"

// testScheme builds the scheme lscli uses, without depending on fakecluster's
// constructor so that this package's tests stand alone.
func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := lsv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

func mtime(offset time.Duration) metav1.Time { return metav1.NewTime(epoch.Add(offset)) }

func mtimep(offset time.Duration) *metav1.Time {
	t := mtime(offset)
	return &t
}

// objectMeta returns metadata as lscli's fake cluster fills it.
func objectMeta(name string, i int, owner *metav1.OwnerReference) metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		Name:              name,
		Namespace:         "default",
		UID:               types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", i)),
		ResourceVersion:   fmt.Sprint(i + 1),
		Generation:        2,
		CreationTimestamp: mtime(time.Duration(i) * time.Second),
		Labels: map[string]string{
			"landscaper.gardener.cloud/encompassed-by": "root",
			"app": fmt.Sprintf("app-%d", i%17),
		},
		Annotations: map[string]string{
			"landscaper.gardener.cloud/operation": "reconcile",
		},
		Finalizers: []string{"finalizer.landscaper.gardener.cloud"},
	}
	if owner != nil {
		m.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return m
}

func ownerRef(kind, name string, i int) *metav1.OwnerReference {
	yes := true
	return &metav1.OwnerReference{
		APIVersion: lsAPIVersion, Kind: kind, Name: name,
		UID: types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", i)), Controller: &yes, BlockOwnerDeletion: &yes,
	}
}

func condition(typ string) lsv1alpha1.Condition {
	return lsv1alpha1.Condition{
		Type: lsv1alpha1.ConditionType(typ), Status: lsv1alpha1.ConditionTrue,
		LastTransitionTime: mtime(time.Minute), LastUpdateTime: mtime(2 * time.Minute),
		Reason: "Reconciled", Message: "all good <ok> & \"quoted\"",
	}
}

func installation(i int) *lsv1alpha1.Installation {
	name := fmt.Sprintf("inst-%d", i)
	return &lsv1alpha1.Installation{
		ObjectMeta: objectMeta(name, i, nil),
		Spec: lsv1alpha1.InstallationSpec{
			Context: "default",
			Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{
				Filesystem: lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml":"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\njsonSchema: \"https://json-schema.org/draft/2019-09/schema\"\nimports:\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n"}`)),
			}},
			Imports: lsv1alpha1.InstallationImports{
				Data:    []lsv1alpha1.DataImport{{Name: "config", DataRef: fmt.Sprintf("config-%d", i)}},
				Targets: []lsv1alpha1.TargetImport{{Name: "cluster", Target: "my-cluster"}},
			},
			ImportDataMappings: map[string]lsv1alpha1.AnyJSON{"replicas": lsv1alpha1.NewAnyJSON([]byte(`3`))},
			Exports: lsv1alpha1.InstallationExports{
				Data: []lsv1alpha1.DataExport{{Name: "url", DataRef: fmt.Sprintf("url-%d", i)}},
			},
		},
		Status: lsv1alpha1.InstallationStatus{
			ObservedGeneration:  2,
			Conditions:          []lsv1alpha1.Condition{condition("Reconciled")},
			ExecutionReference:  &lsv1alpha1.ObjectReference{Name: name, Namespace: "default"},
			JobID:               fmt.Sprintf("job-%d", i),
			JobIDFinished:       fmt.Sprintf("job-%d", i),
			InstallationPhase:   lsv1alpha1.InstallationPhases.Succeeded,
			PhaseTransitionTime: mtimep(3 * time.Minute),
			ImportsHash:         "d41d8cd98f00b204e9800998ecf8427e",
		},
	}
}

func deployItemTemplate(j int) lsv1alpha1.DeployItemTemplate {
	return lsv1alpha1.DeployItemTemplate{
		Name:   fmt.Sprintf("item-%d", j),
		Type:   "landscaper.gardener.cloud/mock",
		Target: &lsv1alpha1.ObjectReference{Name: "my-cluster", Namespace: "default"},
		Labels: map[string]string{"tier": "backend"},
		Configuration: &runtime.RawExtension{Raw: []byte(
			`{"apiVersion":"mock.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","phase":"Succeeded"}`)},
		DependsOn: dependsOn(j),
	}
}

func dependsOn(j int) []string {
	if j == 0 {
		return nil
	}
	return []string{fmt.Sprintf("item-%d", j-1)}
}

func execution(i int) *lsv1alpha1.Execution {
	name := fmt.Sprintf("inst-%d", i)
	ex := &lsv1alpha1.Execution{
		ObjectMeta: objectMeta(name, 100000+i, ownerRef("Installation", name, i)),
		Spec:       lsv1alpha1.ExecutionSpec{Context: "default"},
		Status: lsv1alpha1.ExecutionStatus{
			ObservedGeneration: 2,
			JobID:              fmt.Sprintf("job-%d", i),
			JobIDFinished:      fmt.Sprintf("job-%d", i),
			ExecutionPhase:     lsv1alpha1.ExecutionPhases.Succeeded,
			DeployItemCache:    &lsv1alpha1.DeployItemCache{},
		},
	}
	for j := range 3 {
		ex.Spec.DeployItems = append(ex.Spec.DeployItems, deployItemTemplate(j))
		ex.Status.DeployItemCache.ActiveDIs = append(ex.Status.DeployItemCache.ActiveDIs,
			lsv1alpha1.DiNamePair{SpecName: fmt.Sprintf("item-%d", j), ObjectName: fmt.Sprintf("%s-item-%d-x7k2p", name, j)})
	}
	return ex
}

func deployItem(i, j int) *lsv1alpha1.DeployItem {
	exName := fmt.Sprintf("inst-%d", i)
	tmpl := deployItemTemplate(j)
	return &lsv1alpha1.DeployItem{
		ObjectMeta: objectMeta(fmt.Sprintf("%s-item-%d-x7k2p", exName, j), 200000+3*i+j, ownerRef("Execution", exName, 100000+i)),
		Spec: lsv1alpha1.DeployItemSpec{
			Type: tmpl.Type, Target: tmpl.Target, Context: "default", Configuration: tmpl.Configuration,
		},
		Status: lsv1alpha1.DeployItemStatus{
			Phase:              lsv1alpha1.DeployItemPhases.Succeeded,
			ObservedGeneration: 2,
			LastReconcileTime:  mtimep(4 * time.Minute),
			Deployer: lsv1alpha1.DeployerInformation{
				Identity: "lscli-mock", Name: "mock", Version: "v0.0.0",
			},
			ProviderStatus: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"mock.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderStatus"}`)},
			ExportReference: &lsv1alpha1.ObjectReference{
				Name: fmt.Sprintf("%s-item-%d-export", exName, j), Namespace: "default",
			},
			JobID:               fmt.Sprintf("job-%d", i),
			JobIDFinished:       fmt.Sprintf("job-%d", i),
			JobIDGenerationTime: mtimep(3 * time.Minute),
		},
	}
}

func dataObject(i int) *lsv1alpha1.DataObject {
	return &lsv1alpha1.DataObject{
		ObjectMeta: objectMeta(fmt.Sprintf("config-%d", i), 300000+i, nil),
		Data:       lsv1alpha1.NewAnyJSON([]byte(fmt.Sprintf(`{"replicas":%d,"image":"nginx:1.27"}`, i%5))),
	}
}

func target() *lsv1alpha1.Target {
	meta := objectMeta("my-cluster", 400000, nil)
	meta.DeletionTimestamp = mtimep(time.Hour)
	return &lsv1alpha1.Target{
		ObjectMeta: meta,
		Spec: lsv1alpha1.TargetSpec{
			Type:          "landscaper.gardener.cloud/kubernetes-cluster",
			Configuration: lsv1alpha1.NewAnyJSONPointer([]byte(`{"kubeconfig":"apiVersion: v1\nkind: Config\n"}`)),
		},
	}
}

func contextObj() *lsv1alpha1.Context {
	return &lsv1alpha1.Context{
		ObjectMeta: objectMeta("default", 400001, nil),
		ContextConfiguration: lsv1alpha1.ContextConfiguration{
			Configurations: map[string]lsv1alpha1.AnyJSON{"config.yaml": lsv1alpha1.NewAnyJSON([]byte(`{"a":1}`))},
		},
	}
}

func secret() *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: objectMeta("creds", 400002, nil),
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{"password": []byte("s3cr3t\x00\xff")},
	}
}

func configMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: objectMeta("settings", 400003, nil),
		Data:       map[string]string{"key": "value\nwith newline"},
	}
}

// sampleSnapshot holds one object of every kind lscli stores, plus timers
// and events.
func sampleSnapshot() *Snapshot {
	return &Snapshot{
		Seed:  42,
		Rand:  []byte("chacha8:0123456789abcdef"),
		Clock: epoch.Add(90*time.Minute + 1500*time.Millisecond),
		Timers: []reconcile.Timer{
			{Controller: "deployitem", Namespace: "default", Name: "inst-0-item-0-x7k2p", Due: epoch.Add(time.Hour), Deadline: true},
			{Controller: "installation", Namespace: "default", Name: "inst-0", Due: epoch.Add(2 * time.Hour)},
		},
		Events: []Event{
			{Time: epoch, Kind: "Installation", Namespace: "default", Name: "inst-0", Type: EventCreated},
			{Time: epoch.Add(time.Second), Kind: "Installation", Namespace: "default", Name: "inst-0",
				Type: EventPhaseChanged, Phase: "Init", JobID: "job-0", Message: "line one\nline two"},
		},
		Objects: []fakecluster.Object{
			installation(0), execution(0), deployItem(0, 0), dataObject(0),
			target(), contextObj(), secret(), configMap(),
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bare"}},
		},
	}
}

// bigSnapshot returns a landscape of n installations, n executions, 3n deploy
// items and n data objects, with one timer per installation and four events
// per object.
func bigSnapshot(n int) *Snapshot {
	snap := sampleSnapshot()
	snap.Objects = snap.Objects[4:]
	snap.Timers, snap.Events = nil, nil
	for i := range n {
		snap.Objects = append(snap.Objects, installation(i), execution(i), dataObject(i))
		for j := range 3 {
			snap.Objects = append(snap.Objects, deployItem(i, j))
		}
		snap.Timers = append(snap.Timers, reconcile.Timer{
			Controller: "installation", Namespace: "default", Name: fmt.Sprintf("inst-%d", i),
			Due: epoch.Add(time.Duration(i) * time.Second),
		})
	}
	for i, obj := range snap.Objects {
		for k, phase := range []string{"", "Init", "Progressing", "Succeeded"} {
			typ := EventPhaseChanged
			if k == 0 {
				typ = EventCreated
			}
			snap.Events = append(snap.Events, Event{
				Time: epoch.Add(time.Duration(i*4+k) * time.Millisecond), Kind: reflect.TypeOf(obj).Elem().Name(),
				Namespace: "default", Name: obj.GetName(), Type: typ, Phase: phase, JobID: "job-1",
			})
		}
	}
	return snap
}
