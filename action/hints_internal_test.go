package action

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/reconcile"
)

func failedItem(phase lsv1alpha1.DeployItemPhase, msg string) *lsv1alpha1.DeployItem {
	return &lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "shoot"},
		Status: lsv1alpha1.DeployItemStatus{Phase: phase,
			LastError: &lsv1alpha1.Error{Operation: "WaitForObjectsReady", Reason: lsv1alpha1.ProgressingTimeoutReason, Message: msg}},
	}
}

func TestTimeoutHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	tests := []struct {
		name  string
		item  *lsv1alpha1.DeployItem
		wants []string // substrings; none means no hint
	}{
		{"custom resource", failedItem(failed, `timeout at: "deployer: during readiness check - resource garden-dev/app of type Shoot"`),
			[]string{"DeployItem laas/shoot: its readiness check timed out on Shoot garden-dev/app", "status of a Shoot", "simulatedCluster.seeds"}},
		{"built-in kind without controller", failedItem(failed, `timeout at: "deployer: during readiness check - resource web/api of type Ingress"`),
			[]string{"timed out on Ingress web/api"}},
		{"kind with a fake controller: a rule held it back", failedItem(failed, `timeout at: "deployer: during readiness check - resource web/api of type Deployment"`), nil},
		{"object never read", failedItem(failed, `timeout at: "deployer: during readiness check"`),
			[]string{"before it could read an object it checks", "with its CRD"}},
		{"export", failedItem(failed, "Op: ReconcileManifests - Reason: ReadExportValues - Message: timeout at: \"deployer: during export - key: endpoint\""),
			[]string{`export "endpoint" timed out`}},
		{"not failed", failedItem(lsv1alpha1.DeployItemPhases.Progressing, `timeout at: "deployer: during readiness check"`), nil},
		{"other error", failedItem(failed, `timeout at: "helm deployer: start reconcile"`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := timeoutHint(tt.item, nil)
			if len(tt.wants) == 0 {
				if got != "" {
					t.Fatalf("hint = %q, want none", got)
				}
				return
			}
			for _, w := range tt.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
		})
	}
}

func TestFakedExportsHint(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "container-1"},
		Status: lsv1alpha1.InstallationStatus{LastError: &lsv1alpha1.Error{Operation: "handlePhaseCompleting", Reason: "ConstructExports",
			Message: `template: execution:3:8: executing "execution" at <index .values "deployitems" "run" "x">: error calling index: index of nil pointer`}}}
	item := func(typ lsv1alpha1.DeployItemType, phase lsv1alpha1.DeployItemPhase, exported bool) *lsv1alpha1.DeployItem {
		di := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "container-1-run-abcde",
			Labels: map[string]string{lsv1alpha1.ExecutionManagedNameLabel: "run"}}}
		di.Spec.Type = typ
		di.Status.Phase = phase
		if exported {
			di.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: "x", Namespace: "default"}
		}
		return di
	}
	const container = "landscaper.gardener.cloud/container"
	succeeded := lsv1alpha1.DeployItemPhases.Succeeded
	got := fakedExportsHint(inst, item(container, succeeded, false))
	for _, w := range []string{"Installation default/container-1: its export execution failed", "DeployItem default/container-1-run-abcde",
		"its name in the blueprint: run", "match: {type: " + container + ", name: run}"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"exports given by a rule": item(container, succeeded, true),
		"a type lscli serves":     item("landscaper.gardener.cloud/helm", succeeded, false),
		"failed item":             item(container, lsv1alpha1.DeployItemPhases.Failed, false),
	} {
		if h := fakedExportsHint(inst, di); h != "" {
			t.Errorf("%s: hint = %q, want none", name, h)
		}
	}
	other := inst.DeepCopy()
	other.Status.LastError.Reason, other.Status.LastError.Message = "ReconcileExecution", "Execution is failed"
	if h := fakedExportsHint(other, item(container, succeeded, false)); h != "" {
		t.Errorf("other error: hint = %q, want none", h)
	}
}

func TestNamespaceHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Message: `unable to install helm chart release: create: failed to create: namespaces "example" not found`}
	di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
	got := namespaceHint(di)
	for _, w := range []string{`DeployItem laas/shoot: namespace "example" is not on its target cluster (Target laas/cluster)`, "simulatedCluster.seeds", "createNamespace: true"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	manifest := failedItem(failed, `unable to create resource cu-example/single-item: namespaces "cu-example" not found`)
	if got := namespaceHint(manifest); !strings.Contains(got, `namespace "cu-example" is not on its target cluster (its Target)`) {
		t.Errorf("manifest item: hint = %q", got)
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"not failed":  failedItem(lsv1alpha1.DeployItemPhases.Progressing, `namespaces "example" not found`),
		"other error": failedItem(failed, `configmaps "x" not found`),
	} {
		if h := namespaceHint(di); h != "" {
			t.Errorf("%s: hint = %q, want none", name, h)
		}
	}
}

func TestUnservedKindHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Message: "unable to get api resources for core.gardener.cloud/v1beta1: the server could not find the requested resource"}
	di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "garden"}
	got := unservedKindHint(di)
	for _, w := range []string{"DeployItem laas/shoot: its target cluster (Target laas/garden) does not serve core.gardener.cloud/v1beta1",
		"CustomResourceDefinition", "simulatedCluster.seeds"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	kind := failedItem(failed, `unable to get apiresource for core.gardener.cloud/v1beta1, Kind=CloudProfile`)
	if got := unservedKindHint(kind); !strings.Contains(got, "does not serve core.gardener.cloud/v1beta1, Kind=CloudProfile") {
		t.Errorf("kind: hint = %q", got)
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"not failed":  failedItem(lsv1alpha1.DeployItemPhases.Progressing, "unable to get apiresource for v1, Kind=Foo"),
		"other error": failedItem(failed, `configmaps "x" not found`),
	} {
		if h := unservedKindHint(di); h != "" {
			t.Errorf("%s: hint = %q, want none", name, h)
		}
	}
}

func TestTemplateHintFormerFunc(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "dns"},
		Status: lsv1alpha1.InstallationStatus{LastError: &lsv1alpha1.Error{Reason: "Template",
			Message: `Op: RenderDeployItemTemplates - Reason: Template - Message: unable to template executions: template: execution:23: function "resolve" not defined` + "\ntemplate source:\n..."}}}
	got := templateHint(inst, nil)
	for _, w := range []string{`Installation garden/dns: function "resolve" not defined: Landscaper removed the function resolve in v0.109.0`, `getResourceContent "cd://resources/<name>"`} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	inst.Status.LastError.Message = `template: execution:3: function "nosuch" not defined`
	if h := templateHint(inst, nil); h != "" {
		t.Errorf("unknown function: hint = %q, want none", h)
	}
}

func TestTemplateHintOutputYAML(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "aws"},
		Status: lsv1alpha1.InstallationStatus{LastError: &lsv1alpha1.Error{Reason: "Template",
			Message: `Op: RenderDeployItemTemplates - Reason: Template - Message: unable to template executions: unable to store state: error converting YAML to JSON: yaml: line 104: could not find expected ':'`}}}
	want := "Installation garden/aws: a template's rendered output is not valid YAML at line 104 (could not find expected ':'): 'lscli render' shows the lines around it"
	if got := templateHint(inst, nil); got != want {
		t.Errorf("hint = %q, want %q", got, want)
	}
}

func TestTemplateHintResourceNotFound(t *testing.T) {
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "aws"},
		Status: lsv1alpha1.InstallationStatus{LastError: &lsv1alpha1.Error{Reason: "Template",
			Message: `Message: unable to template executions: template: execution:29:26: executing "execution" at <getResource .cd "name" "alpine">: error calling getResource: NotFound` + "\ntemplate source:\n..."}}}
	want := `Installation garden/aws: getResource .cd "name" "alpine" found no resource ("NotFound" is Landscaper's message): 'lscli render' names the component and what was looked for`
	if got := templateHint(inst, nil); got != want {
		t.Errorf("hint = %q, want %q", got, want)
	}
}

// Where the run has lscli's text of the installation's lastError (which the
// report shows), the hints that only re-derive it from Landscaper's words
// give way to it: a removed function, getResource's NotFound. The hint for
// an output that is not YAML says more (where to see the lines) and stays.
func TestTemplateHintGivesWayToExplanation(t *testing.T) {
	for _, msg := range []string{
		`Op: RenderDeployItemTemplates - Reason: Template - Message: unable to template executions: template: execution:23: function "resolve" not defined`,
		`Message: unable to template executions: template: execution:29:26: executing "execution" at <getResource .cd "name" "alpine">: error calling getResource: NotFound`,
		`Op: RenderDeployItemTemplates - Reason: Template - Message: unable to template executions: unable to store state: error converting YAML to JSON: yaml: line 104: could not find expected ':'`,
	} {
		inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "aws"},
			Status: lsv1alpha1.InstallationStatus{JobID: "job1", LastError: &lsv1alpha1.Error{Reason: "Template", Message: msg}}}
		if templateHint(inst, nil) == "" {
			t.Fatalf("no hint without an explanation for %q", msg)
		}
		var x reconcile.Explanations
		ctx := reconcile.WithExplanations(context.Background(), &x)
		err := &explained{long: "installation garden/aws: lscli's words, with advice", short: msg}
		reconcile.Explain(ctx, "Installation", types.NamespacedName{Namespace: "garden", Name: "aws"}, "job1", inst.Status.LastError, err)
		got := templateHint(inst, &x)
		if keep := strings.Contains(msg, "YAML"); (got != "") != keep {
			t.Errorf("hint with an explanation for %q = %q, want one: %v", msg, got, keep)
		}
	}
}

// explained is an error whose status text is Landscaper's words.
type explained struct{ long, short string }

func (e *explained) Error() string      { return e.long }
func (e *explained) StatusText() string { return e.short }

// A custom readiness check or an export with targetName reads from another
// Target's cluster (Landscaper's lib.GetTargetClientConsideringSecondaryTarget):
// the hint sends the user to that cluster, not to the deploy item's.
func TestTimeoutHintSecondaryTarget(t *testing.T) {
	const config = `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration",
"readinessChecks":{"disableDefault":true,"custom":[
 {"name":"KustomizationReady","resourceSelector":[{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","name":"provider","namespace":"flux-system"}]},
 {"name":"TokenGenerated","targetName":"t2","resourceSelector":[{"apiVersion":"v1","kind":"Secret","name":"test-secret","namespace":"cu-dataflow"}]}]},
"exports":{"exports":[{"key":"test-token","targetName":"t2","fromResource":{"apiVersion":"v1","kind":"Secret","name":"test-secret","namespace":"cu-dataflow"},"jsonPath":".data.token"}]}}`
	describe := func(ns, name string) string {
		return "Target " + ns + "/" + name + " (server https://apps.example:6443)"
	}
	item := func(msg string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, msg)
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(config)}
		return di
	}
	for _, tt := range []struct {
		name, msg string
		wants     []string
		not       string
	}{
		{"object read, on the secondary target", `timeout at: "deployer: during readiness check - resource cu-dataflow/test-secret of type Secret"`,
			[]string{"timed out on Secret cu-dataflow/test-secret", "custom check \"TokenGenerated\" reads it from the cluster of Target laas/t2 (server https://apps.example:6443), its targetName"}, "deploy item's target cluster"},
		{"object never read", `timeout at: "deployer: during readiness check"`,
			[]string{"before it could read an object it checks", "custom check \"TokenGenerated\" reads Secret cu-dataflow/test-secret from the cluster of Target laas/t2 (server https://apps.example:6443), its targetName"}, ""},
		{"export", `timeout at: "deployer: during export - key: test-token"`,
			[]string{`export "test-token" timed out`, "reads Secret cu-dataflow/test-secret from the cluster of Target laas/t2 (server https://apps.example:6443), its targetName"}, "deploy item's target cluster"},
		{"object on the item's target", `timeout at: "deployer: during readiness check - resource flux-system/provider of type Kustomization"`,
			[]string{"timed out on Kustomization flux-system/provider", "seed it on the deploy item's target cluster"}, "targetName"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := timeoutHint(item(tt.msg), describe)
			for _, w := range tt.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
			if tt.not != "" && strings.Contains(got, tt.not) {
				t.Errorf("hint = %q, want it without %q", got, tt.not)
			}
		})
	}
}

// The hint on an object a custom check timed out on says what the check
// requires of it, so that a seed can give it that (a time the template
// rendered with now changes with every job).
func TestTimeoutHintRequirements(t *testing.T) {
	di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "deployer: during readiness check - resource flux-system/provider of type Kustomization"`)
	di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"readinessChecks":{"disableDefault":true,"custom":[
 {"name":"KustomizationReady","resourceSelector":[{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","name":"provider","namespace":"flux-system"}],
  "requirements":[{"jsonPath":".status.conditions[?(@.type == 'Ready')].status","operator":"==","values":[{"value":"True"}]},
   {"jsonPath":".status.lastHandledReconcileAt","operator":"==","values":[{"value":"2025-01-01T00:10:00Z"}]},
   {"jsonPath":".status.x","operator":"exists"},
   {"jsonPath":".status.y","operator":"in","values":[{"value":"a"},{"value":2}]}]}]}}`)}
	got := timeoutHint(di, nil)
	want := `the custom check "KustomizationReady" requires .status.conditions[?(@.type == 'Ready')].status == "True", ` +
		`.status.lastHandledReconcileAt == "2025-01-01T00:10:00Z", .status.x exists, .status.y in ["a",2]`
	if !strings.Contains(got, want) {
		t.Errorf("hint = %q, want it to contain %q", got, want)
	}
}

func TestReleaseTooLargeHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Message: `unable to install helm chart release: create: failed to create: Secret "sh.helm.release.v1.monitoring.v1" is invalid: data: Too long: may not be more than 1048576 bytes`}
	got := releaseTooLargeHint(di)
	for _, w := range []string{`DeployItem laas/shoot: the record of revision 1 of helm release "monitoring" is larger than a Secret may be (1 MiB of data)`,
		"on a real cluster too", ".helmignore", "crds/"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"not failed":   failedItem(lsv1alpha1.DeployItemPhases.Progressing, `Secret "sh.helm.release.v1.m.v1" is invalid: data: Too long`),
		"other secret": failedItem(failed, `Secret "app" is invalid: data: Too long: may not be more than 1048576 bytes`),
	} {
		if h := releaseTooLargeHint(di); h != "" {
			t.Errorf("%s: hint = %q, want none", name, h)
		}
	}
}
