package execution

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
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
			wantPhase: execPhases.Failed, wantError: "has failed or missing deploy items: a",
		},
		{
			name:      "a missing deploy item counts as failed",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", missing: true}},
			wantPhase: execPhases.Failed, wantError: "has failed or missing deploy items: a",
		},
		{
			name:      "a cycle can never start",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", dependsOn: []string{"b"}, jobID: job1, finished: job1}, {name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Failed, wantError: "items could not be started",
		},
		{
			name:      "an unknown dependsOn can never start",
			phase:     execPhases.Progressing,
			items:     []diSpec{{name: "a", dependsOn: []string{"nothere"}, jobID: job1, finished: job1}},
			wantPhase: execPhases.Failed, wantError: "items could not be started",
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
			if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
				t.Fatal(err)
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
	if f.deployItem("waiting").Status.JobID != job1 {
		t.Error("an item waiting for an interrupted one must not start")
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
		if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
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
