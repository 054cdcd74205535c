package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/release"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// hookChart has a ConfigMap and a pre-install Job hook with policy.
func hookChart(policy string) *chart.Chart {
	job := `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-delete-policy: ` + policy + `
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: m, image: m}]
`
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {a: b}\n"
	return &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "app", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/job.yaml", Data: []byte(job)}, {Name: "templates/cm.yaml", Data: []byte(cm)}}}
}

// hookStep runs one call of the install on a simulated cluster at minute
// min.
func hookStep(t *testing.T, c client.Client, ch *chart.Chart, min int, resume, expired bool) (*releaser, *release.Release, error) {
	t.Helper()
	ctx := context.Background()
	r := newReleaser(ctx, c, false, "app", "default", chartutil.DefaultCapabilities.Copy(), epoch.Add(time.Duration(min)*time.Minute))
	pc := &helmv1alpha1.ProviderConfiguration{Name: "app", Namespace: "default"}
	rel, err := r.deploy(ctx, pc, ch, map[string]any{}, 10*time.Minute, resume, expired)
	return r, rel, err
}

func setJob(t *testing.T, c client.Client, cond batchv1.JobConditionType, reason string) *batchv1.Job {
	t.Helper()
	job := &batchv1.Job{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, job); err != nil {
		t.Fatal(err)
	}
	if cond != "" {
		job.Status.Conditions = []batchv1.JobCondition{{Type: cond, Status: corev1.ConditionTrue, Reason: reason}}
		if err := c.Status().Update(context.Background(), job); err != nil {
			t.Fatal(err)
		}
	}
	return job
}

func lastStatus(t *testing.T, r *releaser) release.Status {
	t.Helper()
	last, err := r.cfg.Releases.Last("app")
	if err != nil {
		t.Fatal(err)
	}
	return last.Info.Status
}

// TestHookWaits: a running hook Job pauses the install (nothing after it is
// written, the record stays pending-install); the next call resumes without
// creating the Job again and, once it completed, installs and applies the
// hook-succeeded policy.
func TestHookWaits(t *testing.T) {
	c := newTestCluster()
	ch := hookChart("before-hook-creation,hook-succeeded")
	r, rel, err := hookStep(t, c, ch, 0, false, false)
	if err != nil || rel != nil || !r.paused() {
		t.Fatalf("first call: rel %v, err %v, paused %v; want a pause", rel, err, r.paused())
	}
	if got := lastStatus(t, r); got != release.StatusPendingInstall {
		t.Fatalf("record %s, want pending-install", got)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "app"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Fatalf("ConfigMap written before the pre-install hook finished: %v", err)
	}
	uid := setJob(t, c, "", "").UID

	r, _, err = hookStep(t, c, ch, 1, true, false)
	if err != nil || !r.paused() {
		t.Fatalf("second call: err %v, paused %v; want a pause", err, r.paused())
	}
	if got := setJob(t, c, batchv1.JobComplete, "CompletionsReached").UID; got != uid {
		t.Fatalf("the resumed install created the Job again")
	}

	r, rel, err = hookStep(t, c, ch, 2, true, false)
	if err != nil || rel == nil || r.paused() {
		t.Fatalf("third call: rel %v, err %v, paused %v; want the release", rel, err, r.paused())
	}
	if got := lastStatus(t, r); got != release.StatusDeployed {
		t.Errorf("record %s, want deployed", got)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, &batchv1.Job{}); !apierrors.IsNotFound(err) {
		t.Errorf("hook-succeeded Job not deleted: %v", err)
	}
}

// TestHookFails: a failed Job fails the install with helm's error and the
// hook-failed policy deletes it; a running one past the timeout fails with
// helm's timeout.
func TestHookFails(t *testing.T) {
	c := newTestCluster()
	ch := hookChart("hook-failed")
	if _, _, err := hookStep(t, c, ch, 0, false, false); err != nil {
		t.Fatal(err)
	}
	setJob(t, c, batchv1.JobFailed, "BackoffLimitExceeded")
	r, _, err := hookStep(t, c, ch, 1, true, false)
	want := "unable to install helm chart release: failed pre-install: 1 error occurred:\n\t* job migrate failed: BackoffLimitExceeded"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if got := lastStatus(t, r); got != release.StatusFailed {
		t.Errorf("record %s, want failed", got)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, &batchv1.Job{}); !apierrors.IsNotFound(err) {
		t.Errorf("hook-failed Job not deleted: %v", err)
	}

	c = newTestCluster()
	ch = hookChart("before-hook-creation")
	if _, _, err := hookStep(t, c, ch, 0, false, false); err != nil {
		t.Fatal(err)
	}
	_, _, err = hookStep(t, c, ch, 10, true, true)
	if want := "failed pre-install: 1 error occurred:\n\t* timed out waiting for the condition"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
}

// podHookChart has a ConfigMap and a pre-install Pod hook with policy.
func podHookChart(policy string) *chart.Chart {
	pod := `apiVersion: v1
kind: Pod
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-delete-policy: ` + policy + `
spec:
  restartPolicy: Never
  containers: [{name: m, image: m}]
`
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {a: b}\n"
	return &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "app", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/pod.yaml", Data: []byte(pod)}, {Name: "templates/cm.yaml", Data: []byte(cm)}}}
}

func setPodPhase(t *testing.T, c client.Client, phase corev1.PodPhase) {
	t.Helper()
	pod := &corev1.Pod{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, pod); err != nil {
		t.Fatal(err)
	}
	pod.Status.Phase = phase
	if err := c.Status().Update(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
}

// TestHookPodWaits: helm waits for a hook Pod until its phase is Succeeded
// (kube.Client's waitForPodSuccess): a Pod still pending or running pauses
// the install, a Succeeded one lets it go on.
func TestHookPodWaits(t *testing.T) {
	c := newIdleCluster()
	ch := podHookChart("hook-succeeded")
	r, rel, err := hookStep(t, c, ch, 0, false, false)
	if err != nil || rel != nil || !r.paused() {
		t.Fatalf("first call: rel %v, err %v, paused %v; want a pause", rel, err, r.paused())
	}
	setPodPhase(t, c, corev1.PodRunning)
	r, _, err = hookStep(t, c, ch, 1, true, false)
	if err != nil || !r.paused() {
		t.Fatalf("running Pod: err %v, paused %v; want a pause", err, r.paused())
	}
	if !strings.Contains(r.log.text(), "Pod migrate running") {
		t.Errorf("log %q, want helm's line for a running Pod", r.log.text())
	}
	setPodPhase(t, c, corev1.PodSucceeded)
	r, rel, err = hookStep(t, c, ch, 2, true, false)
	if err != nil || rel == nil || r.paused() {
		t.Fatalf("succeeded Pod: rel %v, err %v, paused %v; want the release", rel, err, r.paused())
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, &corev1.Pod{}); !apierrors.IsNotFound(err) {
		t.Errorf("hook-succeeded Pod not deleted: %v", err)
	}
}

// TestHookPodFails: a Failed hook Pod fails the install with helm's error
// "pod NAME failed".
func TestHookPodFails(t *testing.T) {
	c := newIdleCluster()
	ch := podHookChart("before-hook-creation")
	if _, _, err := hookStep(t, c, ch, 0, false, false); err != nil {
		t.Fatal(err)
	}
	setPodPhase(t, c, corev1.PodFailed)
	r, _, err := hookStep(t, c, ch, 1, true, false)
	want := "unable to install helm chart release: failed pre-install: 1 error occurred:\n\t* pod migrate failed"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if got := lastStatus(t, r); got != release.StatusFailed {
		t.Errorf("record %s, want failed", got)
	}
}

// TestHookSucceededBeforeWait: ingress-nginx's pre-install hooks are a
// ServiceAccount and a Job that runs as it, both hook-succeeded. With
// helm's wait, the install goes on after the hooks: helm deletes them and
// waits for the release's objects, its record still naming the Job
// Running (helm records nothing between the last hook and the end). The
// resumed install must not create that Job again: it completed, and the
// ServiceAccount it needs is gone, so it never would again (a real helm
// waits in one process and never looks back).
func TestHookSucceededBeforeWait(t *testing.T) {
	c := newTestCluster()
	sa := `apiVersion: v1
kind: ServiceAccount
metadata:
  name: certgen
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
`
	job := `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  template:
    spec:
      serviceAccountName: certgen
      restartPolicy: Never
      containers: [{name: m, image: m}]
`
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec: {containers: [{name: app, image: app}]}
`
	ch := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "app", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/sa.yaml", Data: []byte(sa)}, {Name: "templates/job.yaml", Data: []byte(job)},
			{Name: "templates/deploy.yaml", Data: []byte(deploy)}}}
	pc := &helmv1alpha1.ProviderConfiguration{Name: "app", Namespace: "default",
		HelmDeploymentConfig: &helmv1alpha1.HelmDeploymentConfiguration{Install: map[string]lsv1alpha1.AnyJSON{"wait": {RawMessage: []byte("true")}}}}
	step := func(min int, resume bool) (*releaser, *release.Release, error) {
		ctx := context.Background()
		r := newReleaser(ctx, c, false, "app", "default", chartutil.DefaultCapabilities.Copy(), epoch.Add(time.Duration(min)*time.Minute))
		rel, err := r.deploy(ctx, pc, ch, map[string]any{}, 10*time.Minute, resume, false)
		return r, rel, err
	}
	if r, _, err := step(0, false); err != nil || !r.paused() {
		t.Fatalf("first call: err %v, paused %v; want a pause at the Job", err, r.paused())
	}
	setJob(t, c, batchv1.JobComplete, "CompletionsReached")
	if r, _, err := step(1, true); err != nil || !r.paused() {
		t.Fatalf("second call: err %v, paused %v; want a pause at the Deployment", err, r.paused())
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, &batchv1.Job{}); !apierrors.IsNotFound(err) {
		t.Fatalf("hook-succeeded Job not deleted before the wait: %v", err)
	}
	r, _, err := step(2, true)
	if err != nil || !r.paused() {
		t.Fatalf("third call: err %v, paused %v; want a pause at the Deployment", err, r.paused())
	}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "migrate"}, &batchv1.Job{}); !apierrors.IsNotFound(err) {
		t.Errorf("the resumed install created the completed hook Job again: %v", err)
	}
	if got := r.hooks.paused; got != "resources" {
		t.Errorf("third call waits for %q, want the release's objects (resources)", got)
	}
}
