package simcluster

import (
	"strings"
	"testing"
	"time"
)

// ttlCertgenJob is certgenJob (it writes Secret admission) with
// ttlSecondsAfterFinished 0, as ingress-nginx's static manifest has it.
var ttlCertgenJob = strings.Replace(certgenJob, "spec:\n  template:", "spec:\n  ttlSecondsAfterFinished: 0\n  template:", 1)

// TestPodsStartAfterTheJobThatWroteTheirSecret: a workload whose pods mount
// a Secret that a Job writes (ingress-nginx's controller and
// kube-webhook-certgen's create Job, applied together, the workload first)
// does not get ready in the instant the Job finished, but podStartDelay
// later, when the TTL controller has deleted the Job (TTL 0): on a real
// cluster the pods start after the Job has run, so a readiness check that
// needs both to exist never sees them together. NextChange forecasts the
// start.
func TestPodsStartAfterTheJobThatWroteTheirSecret(t *testing.T) {
	f := newFixture(t)
	f.create(mountsAdmission, ttlCertgenJob)
	if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
		t.Errorf("Deployment ready in the instant the Job wrote its Secret")
	}
	if !jobExists(t, f.c, "admission-create") {
		t.Fatalf("Job gone in the instant it finished")
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(podStartDelay)) {
		t.Errorf("NextChange = %v %v, want %v", next, ok, epoch.Add(podStartDelay))
	}
	f.clock.Step(podStartDelay - time.Second)
	if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
		t.Errorf("Deployment ready before its pods start")
	}
	if jobExists(t, f.c, "admission-create") {
		t.Errorf("Job with TTL 0 exists a step after it finished")
	}
	f.clock.Step(time.Second)
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("Deployment not ready when its pods start; status: %v", u.Object["status"])
	}
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Errorf("NextChange reports a change after everything is ready")
	}

	// Created after the Job, in the same instant: its pods start later too.
	f = newFixture(t)
	f.create(ttlCertgenJob, mountsAdmission)
	if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
		t.Errorf("Deployment created after the Job: ready in the instant the Job wrote its Secret")
	}
	f.clock.Step(podStartDelay)
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("Deployment created after the Job: not ready when its pods start")
	}
	// Long after the Job wrote it, a new workload's pods start at once, as
	// do those of a workload without the Secret.
	f.clock.Step(time.Minute)
	f.create(strings.Replace(mountsAdmission, "name: w", "name: later", 1),
		strings.Replace(workload("Deployment", "      containers: [{name: c, image: other}]\n"), "name: w", "name: other", 1))
	for _, name := range []string{"later", "other"} {
		if u := f.get("apps/v1", "Deployment", "default", name); !ready(t, u) {
			t.Errorf("Deployment %s not ready at once", name)
		}
	}
}

// TestPodStartThenRuleDuration: a rule's duration counts from the start of
// the pods, not from the Job's write.
func TestPodStartThenRuleDuration(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment"}, Duration: "10s"})
	f.create(mountsAdmission, certgenJob)
	f.clock.Step(podStartDelay) // the wake-up NextChange forecast
	f.get("apps/v1", "Deployment", "default", "w")
	f.clock.Step(9 * time.Second)
	if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
		t.Errorf("Deployment ready 9s after its pods started, the rule says 10s")
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(podStartDelay+10*time.Second)) {
		t.Errorf("NextChange = %v %v, want %v", next, ok, epoch.Add(podStartDelay+10*time.Second))
	}
	f.clock.Step(time.Second)
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("Deployment not ready 10s after its pods started")
	}
}

// TestPodStartNotForZeroReplicas: a workload that makes no pods has none
// to start: it is ready (scaled to zero) in the instant.
func TestPodStartNotForZeroReplicas(t *testing.T) {
	f := newFixture(t)
	f.create(certgenJob, strings.Replace(mountsAdmission, "replicas: 2", "replicas: 0", 1))
	u := f.get("apps/v1", "Deployment", "default", "w")
	if !strings.Contains(mountsAdmission, "replicas: 2") {
		t.Fatalf("fixture has no replicas: 1:\n%s", mountsAdmission)
	}
	if !ready(t, u) {
		t.Errorf("Deployment of zero replicas not ready; status: %v", u.Object["status"])
	}
}
