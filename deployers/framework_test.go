package deployers

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/fakecluster"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/reconcile"
)

// fullTraits are all traits: the progressing timeout and Progressing
// (Deleting) before the calls.
var fullTraits = deployer.Traits{ProgressingTimeout: true, Progressing: true}

// polling is a deployer with fullTraits that is never done: it polls.
var polling = deployer.WithTraits(deployer.Func(func(_ context.Context, op deployer.Operation, _ deployer.Request) (deployer.Result, error) {
	if op == deployer.OperationDelete {
		return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Deleting}, nil
	}
	return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Progressing}, nil
}), fullTraits)

// mustNotBeCalled fails the test when the framework calls it.
func mustNotBeCalled(t *testing.T) deployer.Deployer {
	return deployer.WithTraits(deployer.Func(func(_ context.Context, op deployer.Operation, _ deployer.Request) (deployer.Result, error) {
		t.Errorf("deployer called (%s)", op)
		return deployer.Result{}, nil
	}), fullTraits)
}

func fakeWith(t *testing.T, cfgs ...RuleConfig) Fake {
	t.Helper()
	rules, err := CompileRules(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	return Fake{Rules: rules}
}

func withTimeout(d string) func(*lsv1alpha1.DeployItem) {
	return func(di *lsv1alpha1.DeployItem) {
		dur := &lsv1alpha1.Duration{}
		if err := dur.UnmarshalJSON([]byte(`"` + d + `"`)); err != nil {
			panic(err)
		}
		di.Spec.Timeout = dur
	}
}

func TestFrameworkReconcile(t *testing.T) {
	tests := []struct {
		name      string
		deployer  func(t *testing.T) deployer.Deployer
		item      *lsv1alpha1.DeployItem
		limit     time.Duration
		want      []string
		wantError *lsv1alpha1.Error // reason, codes and message of lastError
	}{
		{name: "mock succeeds at once", deployer: func(*testing.T) deployer.Deployer { return Mock{} },
			item: item(MockType), want: []string{"+0s Init", "+0s Succeeded"}},
		{name: "fake without rules succeeds at once", deployer: func(t *testing.T) deployer.Deployer { return fakeWith(t) },
			item: item("example.com/app"), want: []string{"+0s Init", "+0s Succeeded"}},
		{name: "fake takes 3m of virtual time", item: item("example.com/app"),
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Match: MatchConfig{Name: "app"}, Reconcile: StepConfig{Duration: "3m"}})
			},
			want: []string{"+0s Init", "+0s Progressing", "+3m0s Succeeded"}},
		{name: "fake fails after 1m", item: item("example.com/app"),
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Reconcile: StepConfig{Duration: "1m", Fail: "quota exceeded"}})
			},
			want:      []string{"+0s Init", "+0s Progressing", "+1m0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: FailureReason, Message: "quota exceeded", Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}},
		{name: "fake hangs", item: item("example.com/app"), limit: time.Hour,
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Reconcile: StepConfig{Hang: true}})
			},
			want: []string{"+0s Init", "+0s Progressing"}},
		{name: "a hanging fake helm item hits the progressing timeout", item: item(HelmType), limit: time.Hour,
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Reconcile: StepConfig{Hang: true}})
			},
			want: []string{"+0s Init", "+0s Progressing", "+10m0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: lsv1alpha1.ProgressingTimeoutReason, Message: `timeout at: "helm deployer: start reconcile"`,
				Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}}},
		{name: "spec.timeout none disables the progressing timeout", item: item(HelmType, withTimeout("none")), limit: time.Hour,
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Reconcile: StepConfig{Hang: true}})
			},
			want: []string{"+0s Init", "+0s Progressing"}},
		{name: "progressing timeout of a polling deployer, from spec.timeout", item: item(HelmType, withTimeout("2m")),
			limit: time.Hour, deployer: func(*testing.T) deployer.Deployer { return polling },
			want: []string{"+0s Init", "+0s Progressing", "+2m0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: lsv1alpha1.ProgressingTimeoutReason,
				Message: `timeout at: "helm deployer: start reconcile"`, Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}}},
		{name: "a target of another type is no error: Landscaper's deployers do not check it",
			deployer: func(*testing.T) deployer.Deployer { return deployer.WithTraits(Mock{}, fullTraits) },
			item:     item(HelmType, func(di *lsv1alpha1.DeployItem) { di.Spec.Target.Name = "other" }),
			want:     []string{"+0s Init", "+0s Progressing", "+0s Succeeded"}},
		{name: "a missing target fails the item", deployer: mustNotBeCalled,
			item: item(HelmType, func(di *lsv1alpha1.DeployItem) { di.Spec.Target.Name = "missing" }),
			want: []string{"+0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: "NoTargetFound",
				Message: "setting deploy item to failed due to missing target"}},
		{name: "never picked up", item: item(MockType), limit: time.Hour,
			deployer: func(t *testing.T) deployer.Deployer {
				return withPickup{Deployer: Mock{}, rules: fakeWith(t, RuleConfig{Match: MatchConfig{Type: string(MockType)}, Pickup: "never"}).Rules}
			},
			want: nil},
		{name: "updateOnChangeOnly finishes an unchanged Succeeded item", deployer: mustNotBeCalled,
			item: item(HelmType, func(di *lsv1alpha1.DeployItem) {
				di.Spec.UpdateOnChangeOnly = true
				di.Status.Phase, di.Status.ObservedGeneration, di.Status.JobIDFinished = lsv1alpha1.DeployItemPhases.Succeeded, 1, "job-0"
			}),
			want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.deployer(t))
			h.must(h.cluster.Create(context.Background(), &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "other"},
				Spec: lsv1alpha1.TargetSpec{Type: "example.com/other"}}))
			h.create(tt.item)
			h.run(tt.limit)
			if !reflect.DeepEqual(h.trace, tt.want) {
				t.Errorf("phases = %q, want %q", h.trace, tt.want)
			}
			checkLastError(t, h.get().Status.LastError, tt.wantError)
		})
	}
}

// checkLastError compares reason, codes and message.
func checkLastError(t *testing.T, got, want *lsv1alpha1.Error) {
	t.Helper()
	if want == nil {
		if got != nil {
			t.Errorf("lastError = %+v, want none", got)
		}
		return
	}
	if got == nil || got.Reason != want.Reason || got.Message != want.Message || !reflect.DeepEqual(got.Codes, want.Codes) {
		t.Errorf("lastError = %+v, want reason %q, codes %v, message %q", got, want.Reason, want.Codes, want.Message)
	}
}

// TestFrameworkProgressingOnError: a deployer with ProgressingOnError (as
// Landscaper's helm and manifest deployers) that fails in Init leaves the
// item in Progressing with the error, is told by deployer.Deploys to deploy
// again, and the call without error clears the error; a deployer without
// the trait keeps Init.
func TestFrameworkProgressingOnError(t *testing.T) {
	for _, trait := range []bool{true, false} {
		var deploys []bool
		calls := 0
		d := deployer.WithTraits(deployer.Func(func(_ context.Context, _ deployer.Operation, req deployer.Request) (deployer.Result, error) {
			calls++
			deploys = append(deploys, deployer.Deploys(req.Item))
			if calls == 1 {
				return deployer.Result{}, errors.New("in the way")
			}
			return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Progressing}, nil
		}), deployer.Traits{ProgressingOnError: trait})
		h := newHarness(t, d)
		h.create(item("example.com/app"))
		want := lsv1alpha1.DeployItemPhases.Init
		if trait {
			want = lsv1alpha1.DeployItemPhases.Progressing
		}
		for i := range 3 {
			h.clock.Set(epoch.Add(time.Duration(i) * PollInterval))
			if _, err := h.f.Reconciler().Reconcile(context.Background(), itemKey); err != nil {
				t.Fatal(err)
			}
			if st := h.get().Status; i == 0 && (st.Phase != want || st.LastError == nil) {
				t.Errorf("trait %v, after the error: phase %s, lastError %v; want %s and the error", trait, st.Phase, st.LastError, want)
			}
		}
		if st := h.get().Status; st.Phase != lsv1alpha1.DeployItemPhases.Progressing || st.LastError != nil {
			t.Errorf("trait %v, after calls without error: phase %s, lastError %v; want Progressing and none", trait, st.Phase, st.LastError)
		}
		if !slices.Equal(deploys, []bool{true, true, false}) {
			t.Errorf("trait %v: Deploys in the three calls %v, want deploy, deploy again after the error, then look", trait, deploys)
		}
	}
}

func TestFrameworkPickupStatus(t *testing.T) {
	h := newHarness(t, Mock{})
	h.clock.Set(epoch.Add(time.Minute))
	h.create(item(MockType, func(di *lsv1alpha1.DeployItem) {
		di.Status.LastError = &lsv1alpha1.Error{Message: "old"}
	}))
	h.run(0)
	st := h.get().Status
	now := epoch.Add(time.Minute)
	if st.LastReconcileTime == nil || !st.LastReconcileTime.Time.Equal(now) || st.TransitionTimes.InitTime == nil ||
		!st.TransitionTimes.InitTime.Time.Equal(now) || st.ObservedGeneration != 1 || st.Deployer.Name != "mock.deployer.landscaper.gardener.cloud" ||
		st.JobIDFinished != "job-1" || st.LastError != nil {
		t.Errorf("status after pickup: %+v", st)
	}
}

func TestFrameworkNormalErrorIsRetried(t *testing.T) {
	calls := 0
	h := newHarness(t, deployer.Func(func(context.Context, deployer.Operation, deployer.Request) (deployer.Result, error) {
		calls++
		if calls < 3 {
			return deployer.Result{}, errors.New("connection refused")
		}
		return deployer.Result{}, nil
	}))
	h.create(item("example.com/app"))
	if _, err := h.f.Reconciler().Reconcile(context.Background(), itemKey); err != nil {
		t.Fatal(err)
	}
	if st := h.get().Status; st.Phase != lsv1alpha1.DeployItemPhases.Init || st.LastError == nil || st.LastError.Message != "connection refused" {
		t.Fatalf("after a normal error: phase %s, lastError %+v; want Init and the error", st.Phase, st.LastError)
	}
	h.clock.Set(epoch.Add(PollInterval))
	for range 2 {
		if _, err := h.f.Reconciler().Reconcile(context.Background(), itemKey); err != nil {
			t.Fatal(err)
		}
	}
	// as Landscaper's HandleReconcileResult: the call without error clears
	// lastError; the job's first error and the list of the last ones stay
	st := h.get().Status
	if st.Phase != lsv1alpha1.DeployItemPhases.Succeeded {
		t.Errorf("phase after the error went away = %s, want Succeeded", st.Phase)
	}
	if st.LastError != nil || st.FirstError == nil || st.FirstError.Message != "connection refused" || len(st.LastErrors) != 2 {
		t.Errorf("errors after success: last %+v, first %+v, %d last errors; want none, the first one, 2", st.LastError, st.FirstError, len(st.LastErrors))
	}
}

func TestFrameworkTerminalErrorFailsTheItem(t *testing.T) {
	h := newHarness(t, deployer.Func(func(context.Context, deployer.Operation, deployer.Request) (deployer.Result, error) {
		return deployer.Result{}, reconcile.TerminalError(errors.New("bad config"))
	}))
	h.create(item("example.com/app"))
	h.run(0)
	if st := h.get().Status; st.Phase != lsv1alpha1.DeployItemPhases.Failed || st.JobIDFinished != "job-1" {
		t.Errorf("phase %s, jobIDFinished %q; want Failed, job-1", st.Phase, st.JobIDFinished)
	}
}

func TestFrameworkExports(t *testing.T) {
	h := newHarness(t, fakeWith(t, RuleConfig{Exports: []byte(`{"url":"https://db"}`)}))
	h.create(item("example.com/app"))
	h.run(0)
	ref := h.get().Status.ExportReference
	if ref == nil || ref.Name != "item-export" {
		t.Fatalf("exportRef = %+v, want item-export", ref)
	}
	s := &corev1.Secret{}
	h.must(h.cluster.Get(context.Background(), types.NamespacedName{Namespace: "example", Name: ref.Name}, s))
	if got := string(s.Data[lsv1alpha1.DataObjectSecretDataKey]); got != `{"url":"https://db"}` {
		t.Errorf("export secret config = %s", got)
	}
}

func TestFrameworkTestReconcile(t *testing.T) {
	h := newHarness(t, Mock{})
	h.create(item(MockType))
	h.run(0)
	di := h.get()
	metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.OperationAnnotation, string(lsv1alpha1.TestReconcileOperation))
	h.must(h.cluster.Update(context.Background(), di))
	h.run(0)
	di = h.get()
	if di.Status.JobID == "job-1" || di.Status.JobIDFinished != di.Status.JobID || di.Annotations[lsv1alpha1.OperationAnnotation] != "" {
		t.Errorf("after test-reconcile: jobID %q, jobIDFinished %q, annotations %v; want a new finished job, no annotation",
			di.Status.JobID, di.Status.JobIDFinished, di.Annotations)
	}
}

// forecast is a deployer.Forecaster with one known change.
type forecast struct {
	deployer.ClusterClients
	at time.Time
}

func (f forecast) NextChange(*lsv1alpha1.Target) (time.Time, bool) { return f.at, true }

func (f forecast) Unpredictable(*lsv1alpha1.Target) bool { return false }

func TestFrameworkWaitsForClusterChanges(t *testing.T) {
	ready := epoch.Add(90 * time.Second)
	var h *harness
	h = newHarness(t, deployer.WithTraits(deployer.Func(func(_ context.Context, _ deployer.Operation, req deployer.Request) (deployer.Result, error) {
		if req.Now.Before(ready) {
			return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Progressing}, nil
		}
		return deployer.Result{}, nil
	}), deployer.Traits{}))
	h.f.Clusters = forecast{at: ready}
	h.create(item(HelmType))
	h.run(time.Hour)
	want := []string{"+0s Init", "+0s Progressing", "+1m30s Succeeded"}
	if !reflect.DeepEqual(h.trace, want) {
		t.Errorf("phases = %q, want %q", h.trace, want)
	}
}

// unpredictable is a deployer.Forecaster for real clusters.
type unpredictable struct{ deployer.ClusterClients }

func (unpredictable) NextChange(*lsv1alpha1.Target) (time.Time, bool) { return time.Time{}, false }

func (unpredictable) Unpredictable(*lsv1alpha1.Target) bool { return true }

func TestFrameworkKeepsPollsOfRealClusters(t *testing.T) {
	h := newHarness(t, polling)
	h.f.Clusters = unpredictable{}
	h.create(item(HelmType))
	h.run(time.Hour)
	want := []string{"+0s Init", "+0s Progressing"}
	if !reflect.DeepEqual(h.trace, want) {
		t.Errorf("phases = %q, want %q: a real cluster's deployer must not jump to its timeout", h.trace, want)
	}
	res, err := h.f.Reconciler().Reconcile(context.Background(), itemKey)
	if err != nil || res.RequeueAfter != PollInterval || res.Deadline {
		t.Errorf("Reconcile = %+v, %v; want a plain poll after %s", res, err, PollInterval)
	}
}

// TestFrameworkProgress checks deployer.Request.Progress: the status is
// written Progressing, with the provider status, in the middle of the call,
// and the call's result is written at its end; an unchanged status is not
// written again.
func TestFrameworkProgress(t *testing.T) {
	ps := &runtime.RawExtension{Raw: []byte(`{"managed":1}`)}
	var seen []lsv1alpha1.DeployItemPhase
	h := newHarness(t, deployer.Func(func(ctx context.Context, _ deployer.Operation, req deployer.Request) (deployer.Result, error) {
		if err := req.Progress(ctx, ps); err != nil {
			return deployer.Result{}, err
		}
		if err := req.Progress(ctx, ps); err != nil {
			return deployer.Result{}, err
		}
		seen = append(seen, req.Item.Status.Phase)
		return deployer.Result{ProviderStatus: ps}, nil
	}))
	h.create(item("example.com/app"))
	var mid *lsv1alpha1.DeployItem
	h.cluster.Watch(func(ev fakecluster.Event) {
		if di, ok := ev.New.(*lsv1alpha1.DeployItem); ok && di.Status.Phase == lsv1alpha1.DeployItemPhases.Progressing {
			mid = di
		}
	})
	h.run(0)
	if !slices.Equal(h.trace, []string{"+0s Init", "+0s Progressing", "+0s Succeeded"}) {
		t.Errorf("phases written: %v, want Init, Progressing, Succeeded", h.trace)
	}
	if mid == nil || string(mid.Status.ProviderStatus.Raw) != `{"managed":1}` {
		t.Errorf("the Progressing write: %+v; want the provider status", mid)
	}
	if !slices.Equal(seen, []lsv1alpha1.DeployItemPhase{lsv1alpha1.DeployItemPhases.Progressing}) {
		t.Errorf("the item the deployer saw after Progress: %v, want Progressing", seen)
	}
	if h.changes != 7 {
		t.Errorf("%d writes, want 7 (Context, Target, the item, its finalizer, pickup, Progressing once, Succeeded)", h.changes)
	}
}

// TestNextPoll: a write wakes a waiting item at its next poll, every
// PollInterval after its last call, as Landscaper's deployers poll.
func TestNextPoll(t *testing.T) {
	at := func(d time.Duration) time.Time { return epoch.Add(d) }
	for _, c := range []struct{ last, now, want time.Time }{
		{at(0), at(0), at(5 * time.Second)}, // written right after the call: the next poll
		{at(0), at(7 * time.Second), at(10 * time.Second)},
		{at(0), at(10 * time.Second), at(10 * time.Second)},
		{at(3 * time.Second), at(time.Minute), at(63 * time.Second)},
		{time.Time{}, at(time.Minute), at(time.Minute)}, // last call not known: now
	} {
		if got := nextPoll(c.last, c.now); !got.Equal(c.want) {
			t.Errorf("nextPoll(%s, %s) = %s, want %s", c.last, c.now, got, c.want)
		}
	}
}
