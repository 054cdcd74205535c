package simcluster

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// priorityPod is a pod spec whose priorityClassName names the
// PriorityClass Argo Workflows' install.yaml creates.
const priorityPod = `
      priorityClassName: workflow-controller
      containers: [{name: c, image: busybox}]`

// workflowControllerClass is that PriorityClass.
const workflowControllerClass = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: workflow-controller}
value: 1000000
`

// noPriorityClass is the Priority admission plugin's reason for a pod of
// priorityPod while the class does not exist.
const noPriorityClass = "no PriorityClass with name workflow-controller was found"

// TestPriorityClassRefusesPod: a Pod whose PriorityClass does not exist
// is refused by the Priority admission plugin; a system class and an
// existing class are admitted.
func TestPriorityClassRefusesPod(t *testing.T) {
	f := newFixture(t)
	err := f.c.Create(context.Background(), obj(t, workload("Pod", priorityPod)))
	if want := `pods "w" is forbidden: ` + noPriorityClass; !apierrors.IsForbidden(err) || err.Error() != want {
		t.Fatalf("Create = %v, want Forbidden %q", err, want)
	}
	system := strings.Replace(workload("Pod", `
      priorityClassName: system-node-critical
      containers: [{name: c, image: busybox}]`), "name: w", "name: sys", 1)
	f.create(system, workflowControllerClass, workload("Pod", priorityPod))
}

// TestPriorityClassStallsWorkload: a Deployment whose pods name a
// PriorityClass that does not exist stays unavailable with the ReplicaSet's
// FailedCreate (the plugin's reason), WaitsFor names the class, and the
// class's creation lets the pods be created.
func TestPriorityClassStallsWorkload(t *testing.T) {
	f := newFixture(t)
	f.create(workload("Deployment", priorityPod))
	d := f.get("apps/v1", "Deployment", "default", "w")
	rs := "w-" + podTemplateHashOf(t, d)
	checkConditions(t, "at once", d,
		`Progressing=True/NewReplicaSetCreated: Created new replica set "`+rs+`"`,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`ReplicaFailure=True/FailedCreate: pods "`+rs+`-" is forbidden: `+noPriorityClass)
	w, err := f.clusters.WaitsFor(context.Background(), f.target, deploymentGVK, "default", "w")
	if err != nil || w.Missing != noPriorityClass {
		t.Errorf("WaitsFor = %+v, %v; want Missing %q", w, err, noPriorityClass)
	}
	f.create(workflowControllerClass)
	if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.CurrentStatus {
		t.Errorf("kstatus once the class exists = %s, want Current", s)
	}
}
