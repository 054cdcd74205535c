package simcluster

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// restrictedNS is a namespace that enforces the restricted level, as
// Tekton Pipelines' release labels tekton-pipelines.
const restrictedNS = `apiVersion: v1
kind: Namespace
metadata:
  name: strict
  labels: {pod-security.kubernetes.io/enforce: restricted}
`

// plainPod is a pod spec without the securityContext the restricted level
// requires.
const plainPod = `
      containers:
      - {name: app, image: example/app}`

// compliantPod is a pod spec that the restricted level admits.
const compliantPod = `
      securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: app
        image: example/app
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}`

// restrictedViolation is PodSecurity admission's reason for plainPod under
// restricted:latest.
const restrictedViolation = `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false ` +
	`(container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities ` +
	`(container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true ` +
	`(pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile ` +
	`(pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`

// inStrict moves a workload manifest of workload() to namespace strict.
func inStrict(manifest string) string {
	return strings.Replace(manifest, "namespace: default", "namespace: strict", 1)
}

// TestPodSecurityRefusesDeploymentPods: the Deployment is stored, its
// ReplicaSet's pods are refused (FailedCreate with PodSecurity's reason),
// and relabeling the namespace to baseline lets them be created.
func TestPodSecurityRefusesDeploymentPods(t *testing.T) {
	f := newFixture(t)
	f.create(restrictedNS, inStrict(workload("Deployment", plainPod)))
	d := f.get("apps/v1", "Deployment", "strict", "w")
	rs := "w-" + podTemplateHashOf(t, d)
	checkConditions(t, "at once", d,
		`Progressing=True/NewReplicaSetCreated: Created new replica set "`+rs+`"`,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`ReplicaFailure=True/FailedCreate: pods "`+rs+`-" is forbidden: `+restrictedViolation)
	w, err := f.clusters.WaitsFor(context.Background(), f.target, deploymentGVK, "strict", "w")
	if err != nil || w.PodSecurity != restrictedViolation {
		t.Errorf("WaitsFor = %+v, %v; want PodSecurity %q", w, err, restrictedViolation)
	}
	f.update(strings.Replace(restrictedNS, "restricted", "baseline", 1))
	if s := kstatusOf(t, f.get("apps/v1", "Deployment", "strict", "w")); s != status.CurrentStatus {
		t.Errorf("kstatus once the namespace enforces baseline = %s, want Current", s)
	}
}

// TestPodSecurityRelabelAfterRestore: the namespace's new level is seen by
// a restored cluster too.
func TestPodSecurityRelabelAfterRestore(t *testing.T) {
	f := newFixture(t)
	f.create(restrictedNS, inStrict(workload("StatefulSet", plainPod)))
	g := f.restored()
	g.c = g.client()
	g.update(strings.Replace(restrictedNS, "restricted", "privileged", 1))
	if s := kstatusOf(t, g.get("apps/v1", "StatefulSet", "strict", "w")); s != status.CurrentStatus {
		t.Errorf("kstatus once the namespace enforces privileged = %s, want Current", s)
	}
}

// TestPodSecurityAdmits: a compliant template, a namespace that only
// warns, and a stricter label on a namespace whose pods run leave the
// workloads ready.
func TestPodSecurityAdmits(t *testing.T) {
	f := newFixture(t)
	warnOnly := strings.Replace(restrictedNS, "enforce", "warn", 1)
	f.create(warnOnly, inStrict(workload("Deployment", plainPod)))
	f.update(restrictedNS) // running pods are not looked at again
	f.create(strings.Replace(inStrict(workload("DaemonSet", compliantPod)), "name: w", "name: ok", 1))
	for _, kind := range []string{"Deployment/w", "DaemonSet/ok"} {
		k, name, _ := strings.Cut(kind, "/")
		if s := kstatusOf(t, f.get("apps/v1", k, "strict", name)); s != status.CurrentStatus {
			t.Errorf("%s: kstatus = %s, want Current", kind, s)
		}
	}
}

// TestPodSecurityRefusesPod: a Pod that violates the level is refused
// with the plugin's Forbidden error.
func TestPodSecurityRefusesPod(t *testing.T) {
	f := newFixture(t)
	f.create(restrictedNS)
	err := f.c.Create(context.Background(), obj(t, inStrict(workload("Pod", plainPod))))
	if want := `pods "w" is forbidden: ` + restrictedViolation; !apierrors.IsForbidden(err) || err.Error() != want {
		t.Fatalf("Create = %v, want Forbidden %q", err, want)
	}
	f.create(inStrict(workload("Pod", compliantPod)))
	if p := f.get("v1", "Pod", "strict", "w"); p == nil {
		t.Fatal("compliant Pod not created")
	}
}

// TestPodSecurityRefusesBadNamespaceLabel: a level or version that does
// not parse is refused on create, as PodSecurity admission's namespace
// check does.
func TestPodSecurityRefusesBadNamespaceLabel(t *testing.T) {
	f := newFixture(t)
	err := f.c.Create(context.Background(), obj(t, strings.Replace(restrictedNS, "restricted", "strictest", 1)))
	want := `Namespace "strict" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strictest": must be one of privileged, baseline, restricted`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Fatalf("Create = %v, want Invalid %q", err, want)
	}
}
