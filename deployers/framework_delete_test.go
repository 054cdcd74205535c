package deployers

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/timeout"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

func TestFrameworkDelete(t *testing.T) {
	tests := []struct {
		name        string
		deployer    func(t *testing.T) deployer.Deployer
		annotations []string
		want        []string
		wantError   *lsv1alpha1.Error
	}{
		{name: "fake deletes at once", deployer: func(t *testing.T) deployer.Deployer { return fakeWith(t) },
			want: []string{"+1h0m0s InitDelete", "+1h0m0s gone"}},
		{name: "fake takes 1m to delete",
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Delete: StepConfig{Duration: "1m"}})
			},
			want: []string{"+1h0m0s InitDelete", "+1h0m0s Deleting", "+1h1m0s gone"}},
		{name: "fake deletion fails",
			deployer: func(t *testing.T) deployer.Deployer {
				return fakeWith(t, RuleConfig{Delete: StepConfig{Fail: "volume still attached"}})
			},
			want: []string{"+1h0m0s InitDelete", "+1h0m0s DeleteFailed"},
			wantError: &lsv1alpha1.Error{Operation: opDelete, Reason: FailureReason, Message: "volume still attached",
				Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}},
		{name: "fake deletion hangs",
			deployer: func(t *testing.T) deployer.Deployer { return fakeWith(t, RuleConfig{Delete: StepConfig{Hang: true}}) },
			want:     []string{"+1h0m0s InitDelete", "+1h0m0s Deleting"}},
		{name: "delete-without-uninstall skips the deployer", deployer: mustNotBeCalled,
			annotations: []string{lsv1alpha1.DeleteWithoutUninstallAnnotation},
			want:        []string{"+1h0m0s InitDelete", "+1h0m0s gone"}},
		{name: "a deletion that fails is retried in Deleting (ProgressingOnError)",
			deployer: func(*testing.T) deployer.Deployer {
				calls := 0
				return deployer.WithTraits(deployer.Func(func(_ context.Context, _ deployer.Operation, req deployer.Request) (deployer.Result, error) {
					calls++
					if deployer.DeletePolls(req.Item) != (calls == 3) {
						return deployer.Result{}, fmt.Errorf("call %d: DeletePolls %v", calls, deployer.DeletePolls(req.Item))
					}
					switch calls {
					case 1:
						return deployer.Result{}, errors.New("connection refused")
					case 2:
						return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Deleting}, nil
					}
					return deployer.Result{}, nil
				}), deployer.Traits{ProgressingOnError: true})
			},
			want: []string{"+1h0m0s InitDelete", "+1h0m0s Deleting", "+1h0m10s gone"}},
		{name: "a real deployer sets Deleting first", deployer: func(*testing.T) deployer.Deployer { return polling },
			want: []string{"+1h0m0s InitDelete", "+1h0m0s Deleting", "+1h10m0s DeleteFailed"},
			wantError: &lsv1alpha1.Error{Operation: timeout.Operation, Reason: lsv1alpha1.ProgressingTimeoutReason,
				Message: `timeout at: "example.com/app deployer: start delete"`, Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.deployer(t)
			h := newHarness(t, Mock{})
			h.create(item("example.com/app"))
			h.run(0)
			h.f.Fallback = d
			h.clock.Set(epoch.Add(time.Hour))
			h.trace = nil
			h.deleteItem(tt.annotations...)
			h.run(0)
			if !reflect.DeepEqual(h.trace, tt.want) {
				t.Errorf("phases = %q, want %q", h.trace, tt.want)
			}
			if tt.wantError != nil {
				got := h.get().Status.LastError
				checkLastError(t, got, tt.wantError)
				if got.Operation != tt.wantError.Operation {
					t.Errorf("lastError.operation = %q, want %q", got.Operation, tt.wantError.Operation)
				}
			}
		})
	}
}
