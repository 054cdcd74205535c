package timeout_test

import (
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

func item(spec *lsv1alpha1.Duration, picked bool) *lsv1alpha1.DeployItem {
	di := &lsv1alpha1.DeployItem{}
	di.Spec.Timeout = spec
	if picked {
		init := metav1.NewTime(epoch)
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{InitTime: &init}
	}
	return di
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		spec     *lsv1alpha1.Duration
		picked   bool
		after    time.Duration
		wantLeft time.Duration
		wantErr  bool
	}{
		{name: "default before deadline", picked: true, after: 9 * time.Minute, wantLeft: time.Minute},
		{name: "default at deadline", picked: true, after: 10 * time.Minute, wantErr: true},
		{name: "default after deadline", picked: true, after: time.Hour, wantErr: true},
		{name: "explicit", spec: &lsv1alpha1.Duration{Duration: 30 * time.Second}, picked: true, after: 20 * time.Second, wantLeft: 10 * time.Second},
		{name: "explicit expired", spec: &lsv1alpha1.Duration{Duration: 30 * time.Second}, picked: true, after: 30 * time.Second, wantErr: true},
		{name: "none disables", spec: &lsv1alpha1.Duration{}, picked: true, after: 1000 * time.Hour},
		{name: "not picked up", after: 1000 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			left, err := timeout.Check(item(tt.spec, tt.picked), epoch.Add(tt.after), "cp")
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if left != tt.wantLeft {
				t.Errorf("left = %v, want %v", left, tt.wantLeft)
			}
			if err == nil {
				return
			}
			te, ok := err.(*reconcile.Error)
			if !ok || te.Operation != timeout.Operation || te.Reason != lsv1alpha1.ProgressingTimeoutReason ||
				len(te.Codes) != 1 || te.Codes[0] != lsv1alpha1.ErrorTimeout {
				t.Errorf("err = %#v, want ProgressingTimeout with ERR_TIMEOUT", err)
			}
			if got, want := te.Message, `timeout at: "cp"`; got != want {
				t.Errorf("message = %q, want %q", got, want)
			}
		})
	}
}

func TestPoll(t *testing.T) {
	tests := []struct {
		name           string
		interval, left time.Duration
		want           time.Duration
	}{
		{name: "unbounded", interval: 5 * time.Second, want: 5 * time.Second},
		{name: "plenty left", interval: 5 * time.Second, left: time.Minute, want: 5 * time.Second},
		{name: "deadline first", interval: 5 * time.Second, left: 2 * time.Second, want: 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := timeout.Poll(tt.interval, tt.left); got != tt.want {
				t.Errorf("Poll = %v, want %v", got, tt.want)
			}
		})
	}
}
