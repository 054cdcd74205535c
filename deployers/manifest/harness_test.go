package manifest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// epoch is where virtual time starts.
var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

// clusters serves one fake cluster per Target name; "" is the item's own.
type clusters map[string]client.Client

func (c clusters) ForTarget(_ context.Context, t *lsv1alpha1.Target) (client.Client, error) {
	name := ""
	if t != nil {
		name = t.Name
	}
	if cl, ok := c[name]; ok {
		return cl, nil
	}
	return nil, fmt.Errorf("no cluster for target %q", name)
}

// targets knows Targets by name; any other is NotFound-like.
type targets map[string]bool

func (t targets) Get(_ context.Context, key types.NamespacedName, obj fakecluster.Object) error {
	if !t[key.Name] {
		return fmt.Errorf("target %s not found", key)
	}
	obj.(*lsv1alpha1.Target).Name = key.Name
	return nil
}

// harness drives the deployer the way the deployer framework does, on a
// virtual clock: it picks an item up for a new job, calls Reconcile or
// Delete, applies the result to the item and waits RequeueAfter.
type harness struct {
	t       *testing.T
	d       *manifest.Deployer
	cluster client.Client
	item    *lsv1alpha1.DeployItem
	now     time.Time
	exports []byte
	// before runs before each call with the time since the job started,
	// like the cluster's controllers.
	before func(since time.Duration)
	// deletes logs the names of the objects deleted, in order.
	deletes []string
}

func newHarness(t *testing.T, stored []string, config string) *harness {
	t.Helper()
	h := &harness{t: t, now: epoch, item: &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "di", Namespace: "default"}}}
	h.cluster = kubetest.Builder().WithObjects(kubetest.Objects(stored...)...).WithInterceptorFuncs(interceptor.Funcs{
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			h.deletes = append(h.deletes, obj.GetName())
			return c.Delete(ctx, obj, opts...)
		},
	}).Build()
	h.d = manifest.New(manifest.Options{Clusters: clusters{"": h.cluster}})
	h.setConfig(config)
	return h
}

// deleted lists the objects deleted, each once, in the order of their
// first delete.
func (h *harness) deleted() []string {
	var out []string
	for _, name := range h.deletes {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// setConfig replaces the item's provider configuration (YAML).
func (h *harness) setConfig(config string) {
	data, err := yaml.YAMLToJSON([]byte(config))
	if err != nil {
		h.t.Fatal(err)
	}
	h.item.Spec.Type = manifest.Type
	h.item.Spec.Configuration = &runtime.RawExtension{Raw: data}
}

// job runs a new job (reconcile, or delete when del) for at most steps
// calls and returns its trace: one "<since> <phase>" per call, then the
// error of the call that failed, if any.
func (h *harness) job(del bool, steps int) string {
	h.t.Helper()
	start := h.now
	init := metav1.NewTime(start)
	h.item.Status.Phase = lsv1alpha1.DeployItemPhases.Init
	if del {
		h.item.Status.Phase = lsv1alpha1.DeployItemPhases.InitDelete
	}
	h.item.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{InitTime: &init}
	var trace []string
	for range steps {
		if h.before != nil {
			h.before(h.now.Sub(start))
		}
		res, err := h.call(del)
		line := fmt.Sprintf("%s %s", h.now.Sub(start), res.Phase)
		if err != nil {
			return strings.Join(append(trace, line+" error: "+describe(err)), "\n")
		}
		trace = append(trace, line)
		if res.Phase.IsFinal() {
			break
		}
		h.now = h.now.Add(res.RequeueAfter)
	}
	return strings.Join(trace, "\n")
}

// call makes one call and records its result in the item, as the
// framework does: an empty phase means Succeeded (Delete: done).
func (h *harness) call(del bool) (deployer.Result, error) {
	req := deployer.Request{Item: h.item.DeepCopy(), Now: h.now}
	call := h.d.Reconcile
	if del {
		call = h.d.Delete
	}
	res, err := call(context.Background(), req)
	if err != nil {
		return res, err
	}
	if res.Phase == "" {
		res.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	}
	h.item.Status.Phase = res.Phase
	if res.ProviderStatus != nil {
		h.item.Status.ProviderStatus = res.ProviderStatus
	}
	if res.Exports != nil {
		h.exports = res.Exports
	}
	return res, nil
}

// describe prints an error that fails the item (an unrecoverable code)
// with its message, operation, reason and codes, and any other error as it is.
func describe(err error) string {
	if !reconcile.IsUnrecoverable(err) {
		return err.Error()
	}
	if e, ok := err.(*reconcile.Error); ok {
		return fmt.Sprintf("%s [%s %s %v]", e.Message, e.Operation, e.Reason, reconcile.CollectCodes(err))
	}
	if te, ok := err.(*reconcile.Terminal); ok {
		return fmt.Sprintf("%s [%s %v]", err, te.Reason, reconcile.CollectCodes(err))
	}
	return fmt.Sprintf("%s [%v]", err, reconcile.CollectCodes(err))
}

// managed returns the item's recorded managed resources as lines.
func (h *harness) managed() string {
	h.t.Helper()
	var status struct {
		ManagedResources managedresource.ManagedResourceStatusList `json:"managedResources"`
	}
	if h.item.Status.ProviderStatus == nil {
		return ""
	}
	if err := json.Unmarshal(h.item.Status.ProviderStatus.Raw, &status); err != nil {
		h.t.Fatal(err)
	}
	var lines []string
	for _, mr := range status.ManagedResources {
		r := mr.Resource
		lines = append(lines, fmt.Sprintf("%s %s %s/%s", mr.Policy, r.Kind, r.Namespace, r.Name))
	}
	return strings.Join(lines, "\n")
}

// exists reports whether the object is in the cluster.
func (h *harness) exists(apiVersion, kind, ns, name string) bool {
	return kubetest.Get(h.t, h.cluster, apiVersion, kind, ns, name) != nil
}

// wantTrace compares a job's trace.
func wantTrace(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// newDeployer is a deployer whose item target is c and whose Target
// "other" is other.
func newDeployer(c, other client.Client) *manifest.Deployer {
	return manifest.New(manifest.Options{Clusters: clusters{"": c, "other": other}, Targets: targets{"other": true}})
}

func mustDuration(t *testing.T, s string) *lsv1alpha1.Duration {
	t.Helper()
	d := &lsv1alpha1.Duration{}
	if err := d.UnmarshalJSON([]byte(`"` + s + `"`)); err != nil {
		t.Fatal(err)
	}
	return d
}

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }
