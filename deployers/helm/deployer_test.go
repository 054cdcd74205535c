package helm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/reconcile"
)

// noReadiness turns off the default readiness check (the fake cluster runs
// no Deployment controller).
var noReadiness = map[string]any{"disableDefault": true}

// versionedClient is a cluster client that reports a server version.
type versionedClient struct {
	client.Client
	version string
}

func (v versionedClient) ServerVersion() (*version.Info, error) {
	return &version.Info{GitVersion: v.version}, nil
}

// TestKubeVersion checks the Kubernetes version charts see.
func TestKubeVersion(t *testing.T) {
	tests := []struct {
		name, option, server, want, wantErr string
	}{
		{name: "default", want: DefaultKubeVersion},
		{name: "option", option: "v1.30.1", want: "v1.30.1"},
		{name: "option without v", option: "1.31.0", want: "v1.31.0"},
		{name: "target cluster wins", option: "v1.30.1", server: "v1.29.4", want: "v1.29.4"},
		{name: "bad version", option: "latest", wantErr: `invalid Kubernetes version "latest"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c client.Client = newTestCluster()
			if tt.server != "" {
				c = versionedClient{Client: c, version: tt.server}
			}
			d := New(Options{Clusters: fixedCluster(c), KubeVersion: tt.option})
			item := deployItem(t, config(t, map[string]any{"readinessChecks": noReadiness}), lsv1alpha1.DeployItemPhases.Init, epoch)
			_, err := d.Reconcile(context.Background(), request(item, epoch))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !reconcile.IsTerminal(err) {
					t.Fatalf("err = %v, want a terminal error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := configMap(t, c, "default", "demo-demo").Data["kubeVersion"]; got != tt.want {
				t.Errorf(".Capabilities.KubeVersion.Version = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCreateNamespace installs into a namespace the release creates.
func TestCreateNamespace(t *testing.T) {
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := config(t, map[string]any{"namespace": "apps", "createNamespace": true, "readinessChecks": noReadiness})
	wantPhase(t, reconcileOnce(t, d, deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch), epoch),
		lsv1alpha1.DeployItemPhases.Succeeded)
	if kubetest.Get(t, c, "v1", "Namespace", "", "apps") == nil {
		t.Error("namespace apps was not created")
	}
	configMap(t, c, "apps", "demo-demo")
	sec := &corev1.Secret{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "apps", Name: "sh.helm.release.v1.demo.v1"}, sec); err != nil {
		t.Errorf("release record: %v", err)
	}
}

// TestExports reads exports from the chart values and from objects.
func TestExports(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "later"},
		Data: map[string]string{"k": "v"}}
	exports := []any{
		map[string]any{"key": "greeting", "jsonPath": ".Values.greeting"},
		map[string]any{"key": "release.name", "jsonPath": "Release.Name"},
		map[string]any{"key": "size", "jsonPath": ".Values.widget.size"},
		map[string]any{"key": "fromObject", "jsonPath": ".data.greeting",
			"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "demo-demo", "namespace": "default"}},
		map[string]any{"key": "later", "jsonPath": ".data.k",
			"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "later", "namespace": "default"}},
	}
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := config(t, map[string]any{"readinessChecks": noReadiness, "exports": map[string]any{"exports": exports}})
	item := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch)

	// an object to export from that does not exist yet keeps the item progressing
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	if res.RequeueAfter != 5*time.Second {
		t.Errorf("requeue after %s, want the 5s poll interval", res.RequeueAfter)
	}
	if err := c.Create(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
	res = reconcileIn(t, d, item, lsv1alpha1.DeployItemPhases.Progressing, epoch.Add(5*time.Second))
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
	var got map[string]any
	if err := json.Unmarshal(res.Exports, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"greeting": "hello", "release": map[string]any{"name": "demo"}, "size": "small",
		"fromObject": "HELLO", "later": "v"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("exports = %v, want %v", got, want)
	}
}

// TestNoExports writes an empty export object, as Landscaper does.
func TestNoExports(t *testing.T) {
	d := New(Options{Clusters: fixedCluster(newTestCluster())})
	cfg := config(t, map[string]any{"readinessChecks": noReadiness})
	res := reconcileOnce(t, d, deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch), epoch)
	if string(res.Exports) != "{}" {
		t.Errorf("exports = %s, want {}", res.Exports)
	}
}

// TestTimeout fails an item that is not ready by spec.timeout.
func TestTimeout(t *testing.T) {
	d := New(Options{Clusters: fixedCluster(newTestCluster())})
	item := deployItem(t, config(t, nil), lsv1alpha1.DeployItemPhases.Init, epoch)
	item.Spec.Timeout = &lsv1alpha1.Duration{Duration: 12 * time.Second}
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	item.Status.ProviderStatus = res.ProviderStatus
	res = reconcileIn(t, d, item, lsv1alpha1.DeployItemPhases.Progressing, epoch.Add(10*time.Second))
	if res.RequeueAfter != 2*time.Second {
		t.Errorf("requeue after %s, want the 2s left", res.RequeueAfter)
	}
	item.Status.Phase = lsv1alpha1.DeployItemPhases.Progressing
	_, err := d.Reconcile(context.Background(), request(item, epoch.Add(12*time.Second)))
	var e *reconcile.Error
	if !errors.As(err, &e) || e.Reason != lsv1alpha1.ProgressingTimeoutReason || !reconcile.IsUnrecoverable(err) {
		t.Fatalf("err = %v, want an unrecoverable ProgressingTimeout", err)
	}
	// as Landscaper's WaitForObjectsReady, whose poll ends at the deadline
	want := `timeout at: "deployer: during readiness check - resource default/demo-demo of type Deployment"`
	if e.Operation != "WaitForObjectsReady" || e.Message != want ||
		!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout, lsv1alpha1.ErrorForInfoOnly}) {
		t.Errorf("lastError %s / %s / %s %v, want WaitForObjectsReady / %s, ERR_TIMEOUT and ERR_FOR_INFO_ONLY",
			e.Operation, e.Reason, e.Message, reconcile.CollectCodes(err), want)
	}
}

// TestExportTimeout: an export whose object never appears fails the item at
// the deadline with Landscaper's exporter error, wrapped as
// Helm.readExportValues wraps it.
func TestExportTimeout(t *testing.T) {
	d := New(Options{Clusters: fixedCluster(newTestCluster())})
	cfg := config(t, map[string]any{"readinessChecks": noReadiness, "exports": map[string]any{"exports": []any{
		map[string]any{"key": "k", "jsonPath": ".data.k",
			"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "never", "namespace": "default"}}}}})
	item := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch)
	item.Spec.Timeout = &lsv1alpha1.Duration{Duration: 7 * time.Second}
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	item.Status.ProviderStatus = res.ProviderStatus
	wantPhase(t, reconcileIn(t, d, item, lsv1alpha1.DeployItemPhases.Progressing, epoch.Add(5*time.Second)),
		lsv1alpha1.DeployItemPhases.Progressing)
	item.Status.Phase = lsv1alpha1.DeployItemPhases.Progressing
	_, err := d.Reconcile(context.Background(), request(item, epoch.Add(7*time.Second)))
	var e *reconcile.Error
	want := `Op: Export - Reason: ProgressingTimeout - Message: timeout at: "deployer: during export - key: k": context deadline exceeded`
	if !errors.As(err, &e) || e.Operation != "ApplyFile" || e.Reason != "ReadExportValues" || e.Message != want ||
		!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}) {
		t.Fatalf("err = %v (codes %v), want ApplyFile / ReadExportValues / %s, ERR_TIMEOUT", err, reconcile.CollectCodes(err), want)
	}
}

// TestConfigErrors fails items whose configuration cannot work.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		changes map[string]any
		wantErr string
	}{
		{name: "no name", changes: map[string]any{"name": ""}, wantErr: "name: Required value"},
		{name: "no chart", changes: map[string]any{"chart": map[string]any{}}, wantErr: "chart: Required value"},
		{name: "unknown helm argument", changes: map[string]any{"helmDeploymentConfig": map[string]any{
			"install": map[string]any{"recreate": true}}}, wantErr: `Unsupported value: "recreate"`},
		{name: "values not an object", changes: map[string]any{"values": []any{1}}, wantErr: "unable to decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Options{Clusters: fixedCluster(newTestCluster())})
			item := deployItem(t, config(t, tt.changes), lsv1alpha1.DeployItemPhases.Init, epoch)
			_, err := d.Reconcile(context.Background(), request(item, epoch))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !reconcile.IsUnrecoverable(err) {
				t.Fatalf("err = %v, want an unrecoverable error containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestExportPathRetried: an export jsonPath that the values lack is retried
// (until the progressing timeout), as Landscaper's ConstructExportFromValues,
// which runs before anything is deployed. The message is the jsonpath's
// own, as Landscaper's: it names neither the export's key nor its path.
func TestExportPathRetried(t *testing.T) {
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	item := deployItem(t, config(t, map[string]any{"readinessChecks": noReadiness, "exports": map[string]any{
		"exports": []any{map[string]any{"key": "x", "jsonPath": ".Values.nope"}}}}), lsv1alpha1.DeployItemPhases.Init, epoch)
	_, err := d.Reconcile(context.Background(), request(item, epoch))
	want := `Op: Reconcile - Reason: ConstructExportFromValues - Message: nope is not found`
	if err == nil || err.Error() != want || reconcile.IsUnrecoverable(err) {
		t.Fatalf("err = %v, want a recoverable error %q", err, want)
	}
	if n := len(releaseSecretsIn(t, c, "default")); n != 0 {
		t.Errorf("%d helm releases stored, want none: the exports are constructed before the install", n)
	}
}

// TestValueExportsGoFieldNames: Landscaper reads the exports without
// fromResource from the render values as they are, where .Chart and
// .Capabilities are helm's structs, so client-go's jsonpath finds their
// fields by JSON name and by Go field name (.Chart.Name, the spelling of
// templates), and an empty field is there (""), not missing.
func TestValueExportsGoFieldNames(t *testing.T) {
	ch := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "greeter", Version: "1.2.3", AppVersion: "0.9"}}
	opts := chartutil.ReleaseOptions{Name: "r", Namespace: "ns", IsInstall: true}
	render, err := chartutil.ToRenderValuesWithSchemaValidation(ch, map[string]any{"a": map[string]any{"b": 1}}, opts, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	defs := []managedresource.Export{{Key: "name", JSONPath: ".Chart.Name"}, {Key: "version", JSONPath: ".Chart.version"},
		{Key: "app", JSONPath: "Chart.AppVersion"}, {Key: "icon", JSONPath: ".Chart.Icon"},
		{Key: "kube", JSONPath: ".Capabilities.KubeVersion.Version"}, {Key: "release", JSONPath: ".Release.Name"},
		{Key: "b", JSONPath: ".Values.a.b"}}
	got, err := valueExports(defs, render)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(got)
	want := `{"app":"0.9","b":1,"icon":"","kube":"` + chartutil.DefaultCapabilities.KubeVersion.Version +
		`","name":"greeter","release":"r","version":"1.2.3"}`
	if string(raw) != want {
		t.Errorf("exports = %s, want %s", raw, want)
	}
}

// TestTemplateErrors: values and render errors of the template step fail the
// item as Landscaper's Helm.Template reports them, wrapped by its
// deployer's Reconcile as Reconcile/Template: the message is the inner
// error's text, the code ERR_CONFIGURATION_PROBLEM.
func TestTemplateErrors(t *testing.T) {
	failing := &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: "boom", Version: "0.1.0"},
		Templates: []*chart.File{{Name: "templates/cm.yaml",
			Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ required \"need val\" .Values.val }}}\n")}},
	}
	tgz, err := chartutil.Save(failing, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	boom := map[string]any{"archive": map[string]any{"raw": base64.StdEncoding.EncodeToString(raw)}}
	tests := []struct {
		name       string
		changes    map[string]any
		wantPrefix string
	}{
		{name: "values not an object", changes: map[string]any{"values": []any{1, 2}},
			wantPrefix: "Op: TemplateChart - Reason: ParseHelmValues - Message: "},
		{name: "render error", changes: map[string]any{"chart": boom, "helmDeployment": false},
			wantPrefix: "Op: TemplateChart - Reason: RenderHelmValues - Message: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCluster()
			d := New(Options{Clusters: fixedCluster(c)})
			item := deployItem(t, config(t, tt.changes), lsv1alpha1.DeployItemPhases.Init, epoch)
			_, err := d.Reconcile(context.Background(), request(item, epoch))
			var e *reconcile.Error
			if !errors.As(err, &e) || e.Operation != "Reconcile" || e.Reason != "Template" || !strings.HasPrefix(e.Message, tt.wantPrefix) ||
				!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}) {
				t.Fatalf("err = %v (codes %v), want Reconcile / Template / %s..., ERR_CONFIGURATION_PROBLEM", err, reconcile.CollectCodes(err), tt.wantPrefix)
			}
		})
	}
}
