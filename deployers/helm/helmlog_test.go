package helm

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/reconcile"
)

// TestFailedActionError checks the error of a failed helm install and
// upgrade against Landscaper's helm deployer: operation
// RealHelmDeployer.Deploy, reason installRelease or upgradeRelease, a
// message of helm's log lines of the attempt followed by the action's own
// Landscaper error. (An object in the way is not ERR_FOR_INFO_ONLY: helm's
// message no longer has the words Landscaper looks for, see
// TestInfoOnlyActionErrors.)
func TestFailedActionError(t *testing.T) {
	ctx := context.Background()
	taken := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "demo-demo"}}
	c := newTestCluster(taken)
	d := New(Options{Clusters: fixedCluster(c)})
	item := deployItem(t, config(t, map[string]any{"readinessChecks": noReadiness}), lsv1alpha1.DeployItemPhases.Init, epoch)
	_, err := d.Reconcile(ctx, request(item, epoch))
	wantActionError(t, err, "installRelease", []string{
		"creating 1 resource(s)",
		"beginning wait for 1 resources with timeout of 1m0s",
	}, "Op: InstallHelmRelease - Reason: Install - Message: unable to install helm chart release: "+
		`Unable to continue with install: ConfigMap "demo-demo" in namespace "default" exists and cannot be imported into the current release`)

	// the same attempt again: the CRD is there now, and the release was not recorded
	_, err = d.Reconcile(ctx, request(item, epoch.Add(time.Minute)))
	wantActionError(t, err, "installRelease", []string{"creating 1 resource(s)", "CRD widgets.demo.lscli.io is already present. Skipping."},
		"Op: InstallHelmRelease - Reason: Install - Message: unable to install helm chart release: Unable to continue with install: ")

	// installed without the ConfigMap in the way and without the Widget;
	// then a Widget of someone else's is in the way of the upgrade
	if err := c.Delete(ctx, taken); err != nil {
		t.Fatal(err)
	}
	off := map[string]any{"readinessChecks": noReadiness, "values": map[string]any{"widget": map[string]any{"enabled": false}}}
	wantPhase(t, reconcileOnce(t, d, deployItem(t, config(t, off), lsv1alpha1.DeployItemPhases.Init, epoch), epoch.Add(2*time.Minute)),
		lsv1alpha1.DeployItemPhases.Succeeded)
	w := &unstructured.Unstructured{}
	w.SetAPIVersion("demo.lscli.io/v1")
	w.SetKind("Widget")
	w.SetNamespace("default")
	w.SetName("demo-demo")
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	on := map[string]any{"readinessChecks": noReadiness, "values": map[string]any{"widget": map[string]any{"enabled": true}}}
	item = deployItem(t, config(t, on), lsv1alpha1.DeployItemPhases.Init, epoch.Add(3*time.Minute))
	_, err = d.Reconcile(ctx, request(item, epoch.Add(3*time.Minute)))
	wantActionError(t, err, "upgradeRelease", []string{"preparing upgrade for demo", "performing update for demo"},
		"Op: UpgradeHelmRelease - Reason: Update - Message: unable to upgrade helm chart release: "+
			`Unable to continue with update: Widget "demo-demo" in namespace "default" exists and cannot be imported into the current release`)
	wantHistory(t, c, "deployed")
}

// wantActionError fails t unless err is Landscaper's error of a failed helm
// action with reason, a message that starts with a newline and the lines
// logged, and a last line that starts with last; and no codes.
func wantActionError(t *testing.T, err error, reason string, logged []string, last string) {
	t.Helper()
	var e *reconcile.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a Landscaper error", err)
	}
	if e.Operation != "RealHelmDeployer.Deploy" || e.Reason != reason {
		t.Errorf("operation, reason = %s, %s; want RealHelmDeployer.Deploy, %s", e.Operation, e.Reason, reason)
	}
	lines := strings.Split(e.Message, "\n")
	if len(lines) != 2+len(logged) || lines[0] != "" || !slices.Equal(lines[1:1+len(logged)], logged) ||
		!strings.HasPrefix(lines[len(lines)-1], last) {
		t.Errorf("message = %q;\nwant a newline, the lines %q and a last line starting %q", e.Message, logged, last)
	}
	if codes := reconcile.CollectCodes(err); len(codes) != 0 {
		t.Errorf("codes = %v, want none", codes)
	}
}

// TestInfoOnlyActionErrors checks which helm errors Landscaper marks
// ERR_FOR_INFO_ONLY: those with the words it looks for, per action.
func TestInfoOnlyActionErrors(t *testing.T) {
	tests := []struct {
		verb, err string
		want      bool
	}{
		{"install", "rendered manifests contain a resource that already exists. Unable to continue with install: x", true},
		{"install", "pre-upgrade hooks failed: x", false},
		{"upgrade", "rendered manifests contain a resource that already exists. Unable to continue with update: x", true},
		{"upgrade", "pre-upgrade hooks failed: job failed", true},
		{"upgrade", "The order in patch list: x", true},
		{"upgrade", "YAML parse error on demo/templates/a.yaml: x", true},
		{"upgrade", "Unable to continue with update: x", false},
	}
	for _, tt := range tests {
		var err error
		if tt.verb == "install" {
			err = installError(errors.New(tt.err))
		} else {
			err = upgradeError(errors.New(tt.err))
		}
		if got := reconcile.HasCode(err, lsv1alpha1.ErrorForInfoOnly); got != tt.want {
			t.Errorf("%s %q: ERR_FOR_INFO_ONLY %v, want %v", tt.verb, tt.err, got, tt.want)
		}
	}
}

// TestHelmLogKeepsLastTenNewLines checks Landscaper's rules for the lines
// it reports: a line logged before is not added again; the last ten stay.
func TestHelmLogKeepsLastTenNewLines(t *testing.T) {
	l := &helmLog{}
	if l.text() != "" {
		t.Fatalf("empty log text = %q", l.text())
	}
	l.printf("a %d", 1)
	l.printf("b")
	l.printf("a 1")
	if got, want := l.text(), "\na 1\nb"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	for i := range 12 {
		l.printf("line %d", i)
	}
	want := "\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\nline 11"
	if got := l.text(); got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	var none *helmLog
	none.printf("dropped")
	if none.text() != "" {
		t.Error("a nil log has text")
	}
}

// TestUpgradeLogLines checks the lines the kube client logs where helm's
// does during an upgrade: a changed object is patched, an unchanged one
// has no changes, a new one is created, and one the chart dropped is deleted.
func TestUpgradeLogLines(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	off := map[string]any{"readinessChecks": noReadiness, "values": map[string]any{"widget": map[string]any{"enabled": false}}}
	wantPhase(t, reconcileOnce(t, d, deployItem(t, config(t, off), lsv1alpha1.DeployItemPhases.Init, epoch), epoch),
		lsv1alpha1.DeployItemPhases.Succeeded)

	ch, err := loader.Load("testdata/chart")
	if err != nil {
		t.Fatal(err)
	}
	r := newReleaser(ctx, c, false, "demo", "default", chartutil.DefaultCapabilities.Copy(), epoch.Add(time.Minute))
	pc := &helmv1alpha1.ProviderConfiguration{Name: "demo", Namespace: "default"}
	vals := map[string]any{"greeting": "bye", "widget": map[string]any{"enabled": true}}
	if _, err := r.deploy(ctx, pc, ch, vals, time.Minute, false, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"checking 3 resources for changes",
		`Patch ConfigMap "demo-demo" in namespace default`,
		`Looks like there are no changes for Deployment "demo-demo"`,
		"Created a new Widget called \"demo-demo\" in default\n",
	} {
		if !slices.Contains(r.log.lines, want) {
			t.Errorf("log lines %q lack %q", r.log.lines, want)
		}
	}

	r = newReleaser(ctx, c, false, "demo", "default", chartutil.DefaultCapabilities.Copy(), epoch.Add(2*time.Minute))
	vals["widget"] = map[string]any{"enabled": false}
	if _, err := r.deploy(ctx, pc, ch, vals, time.Minute, false, false); err != nil {
		t.Fatal(err)
	}
	if want := `Deleting Widget "demo-demo" in namespace default...`; !slices.Contains(r.log.lines, want) {
		t.Errorf("log lines %q lack %q", r.log.lines, want)
	}
}

// TestRetryDeploysAgain: after a call that failed (the item Progressing
// with a lastError, as the framework leaves it) the next call installs
// again, as Landscaper's helm deployer starts over at every reconcile; a
// call in Progressing after one without error only looks.
func TestRetryDeploysAgain(t *testing.T) {
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := config(t, map[string]any{"readinessChecks": noReadiness})

	polled := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Progressing, epoch)
	reconcileOnce(t, d, polled, epoch)
	wantHistory(t, c) // looked, installed nothing

	retried := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Progressing, epoch)
	retried.Status.LastError = &lsv1alpha1.Error{Operation: "RealHelmDeployer.Deploy", Reason: "installRelease", Message: "in the way"}
	wantPhase(t, reconcileOnce(t, d, retried, epoch), lsv1alpha1.DeployItemPhases.Succeeded)
	wantHistory(t, c, "deployed")
}
