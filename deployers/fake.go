package deployers

import "context"

// Fake simulates a deployer without side effects: every item succeeds at
// once and its deletion is done at once.
type Fake struct{}

var _ Deployer = Fake{}

// Reconcile reports Succeeded.
func (Fake) Reconcile(context.Context, Request) (Result, error) { return Result{}, nil }

// Delete reports the uninstall done.
func (Fake) Delete(context.Context, Request) (Result, error) { return Result{}, nil }
