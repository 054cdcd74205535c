package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// taskRefused is kube-apiserver's refusal of a v1beta1 Task while the
// operator serving its CRD's conversion webhook has no ready pod, as the
// manifest deployer reports it.
const taskRefused = `unable to create resource tasks-system/build: conversion webhook for pipelines.example.dev/v1beta1, Kind=Task failed: ` +
	`Post "https://tasks-webhook.tasks-system.svc:443/convert?timeout=30s": dial tcp 10.96.35.157:443: connect: connection refused`

// TestConversionHint: a manifest item that timed out after its last
// attempt was refused by an unreachable conversion webhook is told so,
// with the kind and the webhook's Service, also when the stored object
// could not be read (an update); an item whose last attempt failed
// otherwise, or that did not fail, gets none.
func TestConversionHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: taskRefused}, di.Status.LastError}
	got := conversionHint(di)
	for _, w := range []string{"DeployItem laas/shoot: kube-apiserver refused its last attempt because it could not convert a Task of pipelines.example.dev/v1beta1",
		"Service tasks-system/tasks-webhook, and no pod behind the Service is ready (dial tcp 10.96.35.157:443: connect: connection refused)", "dependsOn"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	read := `Internal error occurred: StorageError: corrupt object, Code: 7, Key: /pipelines.example.dev/tasks/tasks-system/build, ResourceVersion: 0, ` +
		`AdditionalErrorMsg: object not decodable revision=4: conversion webhook for pipelines.example.dev/v1, Kind=Task failed: ` +
		`Post "https://tasks-webhook.tasks-system.svc:443/convert?timeout=30s": service "tasks-webhook" not found`
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: read}, di.Status.LastError}
	if got := conversionHint(di); !strings.Contains(got, "the Service does not exist") {
		t.Errorf("read refused: hint = %q", got)
	}
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: taskRefused}, {Message: "some other error"}, di.Status.LastError}
	if got := conversionHint(di); got != "" {
		t.Errorf("last attempt failed otherwise: hint = %q, want none", got)
	}
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: taskRefused}}
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	if got := conversionHint(di); got != "" {
		t.Errorf("succeeded: hint = %q, want none", got)
	}
}
