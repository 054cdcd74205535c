package reconcile_test

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/reconcile"
)

// A reconciler that needs three minutes of virtual time: the loop moves the
// clock to its deadline instead of waiting.
func ExampleLoop() {
	clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	loop := reconcile.NewLoop(clock, reconcile.NewRandom(reconcile.DefaultSeed), nil)
	started := clock.Now()
	loop.Register("timer", reconcile.Func(func(_ context.Context, key types.NamespacedName) (reconcile.Result, error) {
		if left := started.Add(3 * time.Minute).Sub(clock.Now()); left > 0 {
			return reconcile.Result{RequeueAfter: left, Deadline: true}, nil
		}
		fmt.Printf("%s done at +%s\n", key.Name, clock.Now().Sub(started))
		return reconcile.Result{}, nil
	}))
	loop.Enqueue("timer", types.NamespacedName{Namespace: "default", Name: "egg"})
	res, _ := loop.Run(context.Background(), reconcile.RunOptions{})
	fmt.Println(res.Steps, "steps, stopped:", res.Reason)
	// Output:
	// egg done at +3m0s
	// 2 steps, stopped: quiet
}
