package deployers

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/deployer"
)

// TestFrameworkRecoverableErrors: as in Landscaper's deployer library, an
// error fails an item only with an unrecoverable code; any other keeps its
// phase and the item is tried again (the mock for ever, deployers with the
// progressing timeout until it).
func TestFrameworkRecoverableErrors(t *testing.T) {
	flaky := deployer.WithTraits(deployer.Func(func(context.Context, deployer.Operation, deployer.Request) (deployer.Result, error) {
		return deployer.Result{}, errors.New("chart not reachable")
	}), deployer.Traits{ProgressingTimeout: true})
	// waiter stands for helm's wait: not done until the item's deadline,
	// where its wait ends in an error of its own.
	waiter := deployer.WithTraits(deployer.Func(func(_ context.Context, _ deployer.Operation, req deployer.Request) (deployer.Result, error) {
		if req.Now.Before(epoch.Add(time.Minute)) {
			return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Progressing}, nil
		}
		return deployer.Result{}, deployer.AtDeadline(errors.New("context deadline exceeded"))
	}), deployer.Traits{ProgressingTimeout: true})
	tests := []struct {
		name      string
		deployer  deployer.Deployer
		item      *lsv1alpha1.DeployItem
		want      []string
		wantError *lsv1alpha1.Error
		check     func(t *testing.T, di *lsv1alpha1.DeployItem)
	}{
		{name: "a mock config that does not decode keeps the item in Init for ever", deployer: Mock{},
			item: item(MockType, func(di *lsv1alpha1.DeployItem) {
				di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"phase": 5}`)}
			}),
			want: []string{"+0s Init"},
			wantError: &lsv1alpha1.Error{Reason: "Reconcile", Message: "unable to decode to internal type: json: cannot unmarshal number " +
				"into Go struct field ProviderConfiguration.phase of type v1alpha1.DeployItemPhase"},
			check: func(t *testing.T, di *lsv1alpha1.DeployItem) {
				if len(di.Status.LastErrors) != 5 || di.Status.FirstError == nil || di.Status.LastError.Operation != "reconcile" {
					t.Errorf("lastErrors %d, firstError %v, operation %q; want 5, set, reconcile", len(di.Status.LastErrors), di.Status.FirstError, di.Status.LastError.Operation)
				}
				c := di.Status.Conditions
				if len(c) != 1 || c[0].Type != lsv1alpha1.DeployItemValidationCondition || c[0].Status != lsv1alpha1.ConditionFalse || c[0].Reason != "FailedUnmarshal" {
					t.Errorf("conditions = %+v, want DeployItemValidation False FailedUnmarshal", c)
				}
			}},
		{name: "a mock item that succeeds has the validation condition", deployer: Mock{}, item: item(MockType),
			want: []string{"+0s Init", "+0s Succeeded"},
			check: func(t *testing.T, di *lsv1alpha1.DeployItem) {
				c := di.Status.Conditions
				if len(c) != 1 || c[0].Status != lsv1alpha1.ConditionTrue || c[0].Reason != "SuccessfullValidation" ||
					c[0].Message != "Successfully validated configuration" {
					t.Errorf("conditions = %+v", c)
				}
			}},
		{name: "a missing Context: picked up, then retried without a code", deployer: Mock{},
			item: item(MockType, func(di *lsv1alpha1.DeployItem) { di.Spec.Context = "other" }),
			want: []string{"+0s Init"},
			wantError: &lsv1alpha1.Error{Reason: "GetLandscaperContext",
				Message: `contexts.landscaper.gardener.cloud "other" not found`}},
		{name: "a recoverable error of a deployer with the progressing timeout: retried until it", deployer: flaky,
			item: item("example.com/app", withTimeout("1m")),
			want: []string{"+0s Init", "+1m0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: lsv1alpha1.ProgressingTimeoutReason, Message: `timeout at: "example.com/app deployer: start reconcile"`,
				Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}},
			check: func(t *testing.T, di *lsv1alpha1.DeployItem) {
				if di.Status.FirstError == nil || di.Status.FirstError.Message != "chart not reachable" {
					t.Errorf("firstError = %+v, want the first recoverable error", di.Status.FirstError)
				}
			}},
		{name: "a wait that ends at the deadline in an error: that error, then the timeout", deployer: waiter,
			item: item("example.com/app", withTimeout("1m")),
			want: []string{"+0s Init", "+0s Progressing", "+1m0s Failed"},
			wantError: &lsv1alpha1.Error{Reason: lsv1alpha1.ProgressingTimeoutReason, Message: `timeout at: "example.com/app deployer: start reconcile"`,
				Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}},
			check: func(t *testing.T, di *lsv1alpha1.DeployItem) {
				if e := di.Status.FirstError; e == nil || e.Message != "context deadline exceeded" || e.Operation != "reconcile" || e.Reason != "Reconcile" {
					t.Errorf("firstError = %+v, want the error the wait ended in", e)
				}
				if l := di.Status.LastErrors; len(l) != 2 || !reflect.DeepEqual(l[0], di.Status.FirstError) || !reflect.DeepEqual(l[1], di.Status.LastError) {
					t.Errorf("lastErrors = %+v, want the wait's error and the timeout", l)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.deployer)
			h.create(tt.item)
			h.run(time.Hour)
			if !reflect.DeepEqual(h.trace, tt.want) {
				t.Errorf("phases = %q, want %q", h.trace, tt.want)
			}
			di := h.get()
			checkLastError(t, di.Status.LastError, tt.wantError)
			if tt.check != nil {
				tt.check(t, di)
			}
		})
	}
}

// TestFakedTypes: the framework tells which types its fallback served.
func TestFakedTypes(t *testing.T) {
	h := newHarness(t, Fake{})
	h.f.Deployers = map[lsv1alpha1.DeployItemType]deployer.Deployer{MockType: Mock{}}
	h.create(item("example.com/app"))
	h.run(0)
	if got := h.f.FakedTypes(); !reflect.DeepEqual(got, []string{"example.com/app"}) {
		t.Errorf("FakedTypes = %v", got)
	}
}
