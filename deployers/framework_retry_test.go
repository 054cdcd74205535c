package deployers

import (
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/reconcile"
)

// TestRetry: a failed call that changed its simulated cluster is retried at
// the next poll, as a deadline, and a call of the framework that does not
// call the deployer keeps that retry; a call that changed nothing, or an
// item without a progressing timeout, gets no retry of its own.
func TestRetry(t *testing.T) {
	clock := reconcile.NewVirtualClock(epoch)
	f := &Framework{Clock: clock}
	init := metav1.NewTime(epoch)
	item := func(timeout *lsv1alpha1.Duration) *lsv1alpha1.DeployItem {
		di := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "item"}}
		di.Spec.Timeout = timeout
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{InitTime: &init}
		return di
	}
	traits := deployer.Traits{ProgressingTimeout: true}
	want := deployer.Result{RequeueAfter: PollInterval, Deadline: true}

	if got := f.retry(call{di: item(nil), traits: traits}); !reflect.DeepEqual(got, deployer.Result{}) {
		t.Errorf("unchanged cluster: retry = %+v, want none", got)
	}
	if got := f.retry(call{di: item(&lsv1alpha1.Duration{}), traits: traits, changed: true}); !reflect.DeepEqual(got, deployer.Result{}) {
		t.Errorf("no progressing timeout: retry = %+v, want none", got)
	}
	if got := f.retry(call{di: item(nil), traits: deployer.Traits{}, changed: true}); !reflect.DeepEqual(got, deployer.Result{}) {
		t.Errorf("deployer without progressing timeout: retry = %+v, want none", got)
	}
	c := call{di: item(nil), traits: traits, changed: true}
	if got := f.retry(c); !reflect.DeepEqual(got, want) {
		t.Errorf("changed cluster: retry = %+v, want %+v", got, want)
	}
	clock.Set(epoch.Add(2 * time.Second))
	if got, want := f.pendingRetry(c), (deployer.Result{RequeueAfter: 3 * time.Second, Deadline: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("pendingRetry 2s later = %+v, want %+v", got, want)
	}
	clock.Set(epoch.Add(PollInterval))
	if got := f.pendingRetry(c); !reflect.DeepEqual(got, deployer.Result{}) {
		t.Errorf("pendingRetry at the retry = %+v, want none", got)
	}
}
