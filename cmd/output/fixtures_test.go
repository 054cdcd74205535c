package output

import (
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lscli/lscli/fakecluster"
)

// epoch is the fixed start of virtual time in tests.
var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

// Job IDs of the fixture landscape.
const (
	job0 = "0f1e2d3c-0000-4000-8000-000000000000"
	job1 = "3b7c1f0e-8a2d-4c1b-9f3e-5d6a7b8c9d0e"
	job2 = "9a8b7c6d-1111-4222-8333-444455556666"
	job3 = "5e4d3c2b-aaaa-4bbb-8ccc-dddddddddddd"
)

func meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Namespace:         ns,
		Name:              name,
		UID:               types.UID("uid-" + ns + "-" + name),
		Generation:        1,
		CreationTimestamp: metav1.NewTime(epoch),
	}
}

// ownerRef is a controller reference to owner.
func ownerRef(owner fakecluster.Object, kind string) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: lsv1alpha1.SchemeGroupVersion.String(),
		Kind:       kind,
		Name:       owner.GetName(),
		UID:        owner.GetUID(),
		Controller: ptr.To(true),
	}
}

func lastError(msg string) *lsv1alpha1.Error {
	return &lsv1alpha1.Error{
		Operation:          "Reconcile",
		LastTransitionTime: metav1.NewTime(epoch),
		LastUpdateTime:     metav1.NewTime(epoch),
		Reason:             "Failed",
		Message:            msg,
	}
}

func inst(ns, name string, phase lsv1alpha1.InstallationPhase, jobID, jobIDFinished string) *lsv1alpha1.Installation {
	i := &lsv1alpha1.Installation{ObjectMeta: meta(ns, name)}
	i.Status = lsv1alpha1.InstallationStatus{
		InstallationPhase: phase, JobID: jobID, JobIDFinished: jobIDFinished, ObservedGeneration: 1,
	}
	return i
}

// subInst is an Installation owned by parent and labelled as encompassed by it.
func subInst(parent *lsv1alpha1.Installation, name string, phase lsv1alpha1.InstallationPhase, jobID, jobIDFinished string) *lsv1alpha1.Installation {
	i := inst(parent.Namespace, name, phase, jobID, jobIDFinished)
	i.OwnerReferences = []metav1.OwnerReference{ownerRef(parent, "Installation")}
	i.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: parent.Name}
	return i
}

// execOf is the Execution of owner, and sets owner's executionRef.
func execOf(owner *lsv1alpha1.Installation, phase lsv1alpha1.ExecutionPhase, jobID, jobIDFinished string) *lsv1alpha1.Execution {
	e := &lsv1alpha1.Execution{ObjectMeta: meta(owner.Namespace, owner.Name)}
	e.OwnerReferences = []metav1.OwnerReference{ownerRef(owner, "Installation")}
	e.Status = lsv1alpha1.ExecutionStatus{
		ExecutionPhase: phase, JobID: jobID, JobIDFinished: jobIDFinished, ObservedGeneration: 1,
	}
	owner.Status.ExecutionReference = &lsv1alpha1.ObjectReference{Name: e.Name, Namespace: e.Namespace}
	return e
}

// itemOf is a mock DeployItem owned by exec and labelled as managed by it.
func itemOf(exec *lsv1alpha1.Execution, name string, phase lsv1alpha1.DeployItemPhase, jobID, jobIDFinished string) *lsv1alpha1.DeployItem {
	d := &lsv1alpha1.DeployItem{ObjectMeta: meta(exec.Namespace, name)}
	d.OwnerReferences = []metav1.OwnerReference{ownerRef(exec, "Execution")}
	d.Labels = map[string]string{lsv1alpha1.ExecutionManagedByLabel: exec.Name}
	d.Spec.Type = "landscaper.gardener.cloud/mock"
	d.Status = lsv1alpha1.DeployItemStatus{
		Phase: phase, JobID: jobID, JobIDFinished: jobIDFinished, ObservedGeneration: 1,
	}
	return d
}

// landscape is a landscape with every case the renderers distinguish:
// ownership by reference and by label only, running and outdated jobs, an
// object being deleted, last errors, orphans, and the kinds without a tree.
func landscape() []fakecluster.Object {
	demo := inst("example", "demo", lsv1alpha1.InstallationPhases.Succeeded, job1, job1)
	db := subInst(demo, "demo-db-x7k2p", lsv1alpha1.InstallationPhases.Succeeded, job1, job1)
	dbExec := execOf(db, lsv1alpha1.ExecutionPhases.Succeeded, job1, job1)
	dbItem := itemOf(dbExec, "demo-db-x7k2p-db-8fj2k", lsv1alpha1.DeployItemPhases.Succeeded, job1, job1)
	dbItem.Spec.Target = &lsv1alpha1.ObjectReference{Name: "my-cluster", Namespace: "example"}

	// Linked to its parent by the label only.
	app := subInst(demo, "demo-app-q9w8e", lsv1alpha1.InstallationPhases.Progressing, job1, job0)
	app.OwnerReferences = nil

	demoExec := execOf(demo, lsv1alpha1.ExecutionPhases.Succeeded, job1, job1)
	demoExec.Spec.DeployItems = lsv1alpha1.DeployItemTemplateList{
		{
			Name:          "chart",
			Type:          "landscaper.gardener.cloud/helm",
			Target:        &lsv1alpha1.ObjectReference{Name: "my-cluster", Namespace: "example"},
			Configuration: &runtime.RawExtension{Raw: []byte(`{"values":{"replicas":2}}`)},
		},
		{
			Name:          "config",
			Type:          "landscaper.gardener.cloud/mock",
			Configuration: &runtime.RawExtension{Raw: []byte(`{"phase":"Succeeded"}`)},
			DependsOn:     []string{"chart"},
		},
	}
	chart := itemOf(demoExec, "demo-chart-a1b2c", lsv1alpha1.DeployItemPhases.Succeeded, job1, job1)
	chart.Labels = nil // owned by reference only
	chart.Spec.Type = "landscaper.gardener.cloud/helm"
	chart.Spec.Target = &lsv1alpha1.ObjectReference{Name: "other-cluster", Namespace: "infra"}
	chart.Generation = 3
	chart.Status.ObservedGeneration = 2
	config := itemOf(demoExec, "demo-config-d4e5f", lsv1alpha1.DeployItemPhases.Succeeded, job1, job1)
	config.OwnerReferences = nil // labelled only

	broken := inst("example", "broken", lsv1alpha1.InstallationPhases.Failed, job2, job2)
	broken.Status.LastError = lastError("execution example/broken is in phase Failed")
	brokenExec := execOf(broken, lsv1alpha1.ExecutionPhases.Failed, job2, job2)
	brokenExec.Status.LastError = lastError("has failed or missing deploy items")
	brokenItem := itemOf(brokenExec, "broken-item-zz9x8", lsv1alpha1.DeployItemPhases.Failed, job2, job2)
	brokenItem.Status.LastError = lastError("unable to apply manifest:\nconnection refused")

	upgrade := inst("other", "upgrade", lsv1alpha1.InstallationPhases.Deleting, job3, job2)
	upgrade.DeletionTimestamp = ptr.To(metav1.NewTime(epoch.Add(time.Minute)))
	upgradeExec := execOf(upgrade, lsv1alpha1.ExecutionPhases.Deleting, job3, job2)
	old := itemOf(upgradeExec, "upgrade-old-m3n4b", lsv1alpha1.DeployItemPhases.Deleting, job2, job0)
	old.DeletionTimestamp = ptr.To(metav1.NewTime(epoch.Add(time.Minute)))
	fresh := itemOf(upgradeExec, "upgrade-new-p5q6r", "", "", "")

	lost := &lsv1alpha1.Execution{ObjectMeta: meta("example", "lost")}
	lost.Status.ExecutionPhase = lsv1alpha1.ExecutionPhases.Succeeded
	lost.Status.JobID, lost.Status.JobIDFinished = job0, job0
	stray := itemOf(lost, "stray-k1l2m", lsv1alpha1.DeployItemPhases.Failed, job0, job0)
	stray.OwnerReferences = nil
	stray.Labels[lsv1alpha1.ExecutionManagedByLabel] = "gone"
	dangling := inst("example", "dangling", lsv1alpha1.InstallationPhases.Init, "", "")
	dangling.OwnerReferences = []metav1.OwnerReference{{Kind: "Installation", Name: "gone", UID: "uid-gone"}}

	target := &lsv1alpha1.Target{ObjectMeta: meta("example", "my-cluster")}
	target.Spec.Type = "landscaper.gardener.cloud/kubernetes-cluster"
	data := &lsv1alpha1.DataObject{ObjectMeta: meta("example", "dataobj-demo-db-url")}
	data.Labels = map[string]string{
		lsv1alpha1.DataObjectContextLabel: "Inst.demo",
		lsv1alpha1.DataObjectKeyLabel:     "url",
	}
	data.Data = lsv1alpha1.NewAnyJSON([]byte(`"postgres://db:5432"`))
	ctx := &lsv1alpha1.Context{ObjectMeta: meta("example", "default")}
	secret := &corev1.Secret{ObjectMeta: meta("example", "credentials"), Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{"password": []byte("s3cret")}}
	cm := &corev1.ConfigMap{ObjectMeta: meta("example", "settings"), Data: map[string]string{"a": "1", "b": "2"}}

	// Deliberately unsorted.
	return []fakecluster.Object{
		cm, secret, ctx, data, target,
		stray, lost, dangling,
		old, fresh, upgradeExec, upgrade,
		brokenItem, brokenExec, broken,
		config, chart, demoExec, app, dbItem, dbExec, db, demo,
	}
}
