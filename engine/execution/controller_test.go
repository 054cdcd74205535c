package execution

import (
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/dataflow"
)

var execPhases = lsv1alpha1.ExecutionPhases

// diSpec describes a deploy item of the execution under test: its template
// (name, dependsOn) and, when it exists, its status.
type diSpec struct {
	name      string
	dependsOn []string
	missing   bool // no DeployItem object
	jobID     string
	finished  string
	phase     lsv1alpha1.DeployItemPhase
}

// setupExecution creates installation "x" and its execution in phase with
// jobID job2, and the deploy items.
func setupExecution(f *fixture, phase lsv1alpha1.ExecutionPhase, items []diSpec, annotations map[string]string) {
	f.Create(inst("x", status(lsv1alpha1.InstallationPhases.Progressing, job2, job1)))
	var templates lsv1alpha1.DeployItemTemplateList
	for _, it := range items {
		templates = append(templates, lsv1alpha1.DeployItemTemplate{Name: it.name, Type: "landscaper.gardener.cloud/mock",
			DependsOn: it.dependsOn, Configuration: &runtime.RawExtension{Raw: []byte(`{}`)}})
	}
	owner := f.Installation("x")
	exec := &lsv1alpha1.Execution{
		ObjectMeta: metav1.ObjectMeta{Name: owner.Name, Namespace: owner.Namespace,
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(owner, "Installation")}},
		Spec: lsv1alpha1.ExecutionSpec{Context: owner.Spec.Context, DeployItems: templates},
	}
	exec.Finalizers = []string{lsv1alpha1.LandscaperFinalizer}
	exec.Annotations = annotations
	exec.Status = lsv1alpha1.ExecutionStatus{ExecutionPhase: phase, JobID: job2, JobIDFinished: job1}
	f.Create(exec)
	exec = f.Execution("x")
	for i, it := range items {
		if it.missing {
			continue
		}
		di := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "x-" + it.name, Namespace: testNS,
			Finalizers:      []string{lsv1alpha1.LandscaperFinalizer},
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(exec, "Execution")}}}
		setDeployItemFromTemplate(di, exec, templates[i], f.Clock.Now())
		di.Status = lsv1alpha1.DeployItemStatus{Phase: it.phase, JobID: it.jobID, JobIDFinished: it.finished}
		f.Create(di)
	}
}

// deployItem finds the deploy item of template name of execution "x".
func (f *fixture) deployItem(name string) *lsv1alpha1.DeployItem {
	f.T.Helper()
	items, err := New(*f.cfg).deployItems(f.Ctx, f.Execution("x"))
	if err != nil {
		f.T.Fatal(err)
	}
	return items[name]
}

// TestExecutionTransitions runs one reconcile of execution "x" and checks its
// phase and which deploy items got the job.
func TestExecutionTransitions(t *testing.T) {
	succeeded := lsv1alpha1.DeployItemPhases.Succeeded
	failed := lsv1alpha1.DeployItemPhases.Failed
	tests := []struct {
		name          string
		phase         lsv1alpha1.ExecutionPhase
		annotations   map[string]string
		items         []diSpec
		wantPhase     lsv1alpha1.ExecutionPhase
		wantTriggered []string // items that have job2 afterwards and had not before
		wantError     string   // lastError of the execution
		wantErr       bool     // the reconcile returns an error (retry)
	}{
		{
			name:      "only items whose dependsOn finished are triggered",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", jobID: job1, finished: job1}, {name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Progressing, wantTriggered: []string{"a"},
		},
		{
			name:      "a failed item stops triggering and, once nothing runs, fails the execution",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", jobID: job2, finished: job2, phase: failed}, {name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Failed, wantError: "has failed or missing deploy items",
		},
		{
			name:      "a missing deploy item counts as failed",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", missing: true}},
			wantPhase: execPhases.Failed, wantError: "has failed or missing deploy items",
		},
		{
			name:      "a cycle can never start",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", dependsOn: []string{"b"}, jobID: job1, finished: job1}, {name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Failed, wantError: "items could not be started",
		},
		{
			name:      "an unknown dependsOn keeps the execution in Progressing (Landscaper's IsRunnable error), retried",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", dependsOn: []string{"nothere"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Progressing, wantError: "dependent deployitem nothere of deployitem a not found", wantErr: true,
		},
		{
			name:      "a running item: wait with the informational lastError, no retry",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", jobID: job2, finished: job1, phase: lsv1alpha1.DeployItemPhases.Progressing}},
			wantPhase: execPhases.Progressing, wantError: "some running items",
		},
		{
			name:      "all succeeded: Completing collects exports and ends in Succeeded",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", jobID: job2, finished: job2, phase: succeeded}},
			wantPhase: execPhases.Succeeded,
		},
		{
			name:      "Init creates missing items and moves on to trigger them",
			phase:     execPhases.Succeeded,
			items:     []diSpec{{name: "a", missing: true}},
			wantPhase: execPhases.Progressing, wantTriggered: []string{"a"},
		},
		{
			name:        "interrupt fails unfinished items; the execution fails",
			phase:       execPhases.Progressing,
			annotations: map[string]string{lsv1alpha1.OperationAnnotation: "interrupt"},
			items:       []diSpec{{name: "a", jobID: job2, finished: job1, phase: lsv1alpha1.DeployItemPhases.Progressing}},
			wantPhase:   execPhases.Progressing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			setupExecution(f, tt.phase, tt.items, tt.annotations)
			before := map[string]string{}
			for _, it := range tt.items {
				before[it.name] = it.jobID
			}
			if _, err := f.reconcile(New(*f.cfg), "x"); (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
			}
			exec := f.Execution("x")
			if exec.Status.ExecutionPhase != tt.wantPhase {
				t.Errorf("phase = %s, want %s (lastError %v)", exec.Status.ExecutionPhase, tt.wantPhase, exec.Status.LastError)
			}
			if tt.wantError != "" && (exec.Status.LastError == nil || !strings.Contains(exec.Status.LastError.Message, tt.wantError)) {
				t.Errorf("lastError = %v, want %q", exec.Status.LastError, tt.wantError)
			}
			var triggered []string
			for _, it := range tt.items {
				if di := f.deployItem(it.name); di != nil && di.Status.JobID == job2 && before[it.name] != job2 {
					triggered = append(triggered, it.name)
				}
			}
			if strings.Join(triggered, ",") != strings.Join(tt.wantTriggered, ",") {
				t.Errorf("triggered %v, want %v", triggered, tt.wantTriggered)
			}
		})
	}
}

// TestExecutionInterrupt checks what an interrupt does to the deploy items.
func TestExecutionInterrupt(t *testing.T) {
	f := newFixture(t)
	setupExecution(f, execPhases.Progressing, []diSpec{
		{name: "running", jobID: job2, finished: job1, phase: lsv1alpha1.DeployItemPhases.Progressing},
		{name: "done", jobID: job2, finished: job2, phase: lsv1alpha1.DeployItemPhases.Succeeded},
		{name: "waiting", dependsOn: []string{"running"}, jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded},
	}, map[string]string{lsv1alpha1.OperationAnnotation: "interrupt"})
	c := New(*f.cfg)
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatal(err)
	}
	running := f.deployItem("running")
	if running.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || running.Status.JobIDFinished != job2 ||
		running.Status.LastError == nil || running.Status.LastError.Message != interruptedMessage {
		t.Errorf("running item: %+v", running.Status)
	}
	if f.deployItem("done").Status.Phase != lsv1alpha1.DeployItemPhases.Succeeded {
		t.Error("a finished item must stay as it is")
	}
	if _, ok := f.Execution("x").Annotations[lsv1alpha1.OperationAnnotation]; ok {
		t.Error("interrupt annotation not removed")
	}
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatal(err)
	}
	if p := f.Execution("x").Status.ExecutionPhase; p != execPhases.Failed {
		t.Errorf("after the interrupt the execution is %s, want Failed", p)
	}
	waiting := f.deployItem("waiting").Status
	if waiting.Phase != lsv1alpha1.DeployItemPhases.Failed || waiting.JobID != job2 || waiting.JobIDFinished != job2 ||
		waiting.TransitionTimes == nil || waiting.TransitionTimes.FinishedTime == nil || waiting.JobIDGenerationTime != nil ||
		waiting.LastError == nil || waiting.LastError.Reason != interruptedOp || waiting.FirstError == nil {
		t.Errorf("an item the job never triggered fails too, with the job's ID and no jobIDGenerationTime: %+v", waiting)
	}
}

// TestExecutionInterruptEveryManagedItem checks that an interrupt fails every
// unfinished item the execution manages, as Landscaper's
// handleInterruptOperation lists them (by the managed-by label alone), also
// two that carry the same template name.
func TestExecutionInterruptEveryManagedItem(t *testing.T) {
	f := newFixture(t)
	setupExecution(f, execPhases.Progressing, []diSpec{
		{name: "a", jobID: job2, finished: job1, phase: lsv1alpha1.DeployItemPhases.Progressing},
	}, map[string]string{lsv1alpha1.OperationAnnotation: "interrupt"})
	twin := f.deployItem("a").DeepCopy()
	twin.ObjectMeta = metav1.ObjectMeta{Name: "x-a-twin", Namespace: testNS, Labels: twin.Labels,
		Finalizers: []string{lsv1alpha1.LandscaperFinalizer}, OwnerReferences: twin.OwnerReferences}
	f.Create(twin)
	if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x-a", "x-a-twin"} {
		di := &lsv1alpha1.DeployItem{}
		if !f.Get(di, name) {
			t.Fatalf("deploy item %s is gone", name)
		}
		if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || di.Status.JobIDFinished != job2 {
			t.Errorf("deploy item %s: phase %s, jobIDFinished %s; want Failed in %s", name, di.Status.Phase, di.Status.JobIDFinished, job2)
		}
	}
}

// TestExecutionDeletion checks the deletion order and delete-without-uninstall.
func TestExecutionDeletion(t *testing.T) {
	t.Run("reverse dependsOn order", func(t *testing.T) {
		f := newFixture(t)
		setupExecution(f, execPhases.Succeeded, []diSpec{
			{name: "a", jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded},
			{name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded},
		}, nil)
		f.Delete(f.Execution("x"))
		if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
			t.Fatal(err)
		}
		if p := f.Execution("x").Status.ExecutionPhase; p != execPhases.Deleting {
			t.Fatalf("phase = %s, want Deleting", p)
		}
		if a, b := f.deployItem("a"), f.deployItem("b"); a.Status.JobID == job2 || b.Status.JobID != job2 {
			t.Errorf("want only b (nothing depends on it) triggered; a %s b %s", a.Status.JobID, b.Status.JobID)
		}
	})
	t.Run("delete-without-uninstall removes the items without a deployer", func(t *testing.T) {
		f := newFixture(t)
		setupExecution(f, execPhases.Succeeded, []diSpec{{name: "a", jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded}},
			map[string]string{lsv1alpha1.DeleteWithoutUninstallAnnotation: "true"})
		f.Delete(f.Execution("x"))
		c := New(*f.cfg)
		if _, err := f.reconcile(c, "x"); err != nil {
			t.Fatal(err)
		}
		if a := f.deployItem("a"); a != nil {
			t.Errorf("item a must go in Deleting without a job: %+v", a)
		}
		if _, err := f.reconcile(c, "x"); err != nil {
			t.Fatal(err)
		}
		if f.Get(&lsv1alpha1.Execution{}, "x") {
			t.Error("execution still there")
		}
		items := &lsv1alpha1.DeployItemList{}
		if err := f.Cluster.List(f.Ctx, items, fakecluster.ListOptions{Namespace: testNS}); err != nil || len(items.Items) != 0 {
			t.Errorf("deploy items still there: %d (%v)", len(items.Items), err)
		}
	})
}

// TestExecutionExports collects the exports of every template's item as a
// JSON object, as Landscaper does: an item without exports gives null, YAML
// objects are accepted, anything but an object fails the execution.
func TestExecutionExports(t *testing.T) {
	succeeded := lsv1alpha1.DeployItemPhases.Succeeded
	tests := []struct {
		name      string
		exports   map[string]string // item name → export Secret content
		wantPhase lsv1alpha1.ExecutionPhase
		wantData  string
		wantError string
	}{
		{name: "objects and null", exports: map[string]string{"a": `{"x": 1}`, "c": "z: two\n"},
			wantPhase: execPhases.Succeeded, wantData: "{\n  \"a\": {\n    \"x\": 1\n  },\n  \"b\": null,\n  \"c\": {\n    \"z\": \"two\"\n  }\n}"},
		{name: "a string fails", exports: map[string]string{"a": `"hello"`}, wantPhase: execPhases.Failed,
			wantError: "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}"},
		{name: "a list fails", exports: map[string]string{"a": `[1]`}, wantPhase: execPhases.Failed,
			wantError: "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var items []diSpec
			for _, n := range []string{"a", "b", "c"} {
				items = append(items, diSpec{name: n, jobID: job2, finished: job2, phase: succeeded})
			}
			setupExecution(f, execPhases.Progressing, items, nil)
			for name, content := range tt.exports {
				di := f.deployItem(name)
				f.Create(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name + "-export"},
					Data: map[string][]byte{lsv1alpha1.DataObjectSecretDataKey: []byte(content)}})
				di.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: name + "-export", Namespace: testNS}
				if err := f.Cluster.UpdateStatus(f.Ctx, di); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
				t.Fatal(err)
			}
			exec := f.Execution("x")
			if exec.Status.ExecutionPhase != tt.wantPhase {
				t.Fatalf("phase = %s, want %s (lastError %v)", exec.Status.ExecutionPhase, tt.wantPhase, exec.Status.LastError)
			}
			if tt.wantError != "" {
				e := exec.Status.LastError
				if e == nil || e.Operation != opExports || e.Reason != "AddExports" || e.Message != tt.wantError || len(e.Codes) != 0 {
					t.Errorf("lastError = %+v, want {%s AddExports %q}", e, opExports, tt.wantError)
				}
				return
			}
			do := &lsv1alpha1.DataObject{}
			if !f.Get(do, exec.Status.ExportReference.Name) {
				t.Fatal("no export data object")
			}
			if got := string(do.Data.RawMessage); got != tt.wantData {
				t.Errorf("data = %s, want %s", got, tt.wantData)
			}
			if refs := do.OwnerReferences; len(refs) != 1 || refs[0].Controller != nil || refs[0].Kind != "Execution" {
				t.Errorf("owner references = %+v, want one plain reference to the execution", refs)
			}
			if do.Annotations[lsv1alpha1.DataObjectHashAnnotation] == "" {
				t.Error("no hash annotation")
			}
		})
	}
}

// TestExecutionInitRefreshesItems: every Init sets reconcile-time and the
// dependsOn annotation (empty without dependencies), and the orphans are
// recorded, deleted, and forgotten once the job succeeded.
func TestExecutionInitRefreshesItems(t *testing.T) {
	f := newFixture(t)
	setupExecution(f, execPhases.Succeeded, []diSpec{{name: "a", jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded}}, nil)
	di := f.deployItem("a")
	di.Annotations[lsv1alpha1.ReconcileTimestampAnnotation] = "2000-01-01T00:00:00Z"
	if err := f.Cluster.Update(f.Ctx, di); err != nil {
		t.Fatal(err)
	}
	f.Clock.Set(f.Clock.Now().Add(time.Hour))
	if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
		t.Fatal(err)
	}
	di = f.deployItem("a")
	if got := di.Annotations[lsv1alpha1.ReconcileTimestampAnnotation]; got != "2025-01-01T01:00:00Z" {
		t.Errorf("reconcile-time = %s, want the new job's time", got)
	}
	if v, ok := di.Annotations[lsv1alpha1.ExecutionDependsOnAnnotation]; !ok || v != "" {
		t.Errorf("dependsOn annotation = %q (%v), want present and empty", v, ok)
	}
	exec := f.Execution("x")
	if tt := exec.Status.TransitionTimes; tt == nil || tt.WaitTime == nil || !tt.WaitTime.Time.Equal(f.Clock.Now()) {
		t.Errorf("waitTime = %+v, want set when Progressing starts", tt)
	}
}
