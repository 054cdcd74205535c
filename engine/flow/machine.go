package flow

import (
	"context"
	"fmt"
	"reflect"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// Gone is the phase a handler returns after it removed the object: the flow
// stops without writing status.
const Gone = "<gone>"

// Machine walks objects of one kind (T, with phases P) through their phases.
// All fields are required unless they say otherwise.
type Machine[T fakecluster.Object, P Phase] struct {
	// Client writes the status.
	Client fakecluster.Writer
	// Clock stamps phase transitions.
	Clock reconcile.Clock
	// Status returns the flow fields of an object.
	Status func(T) Status[P]
	// Init and InitDelete are the first phases of a job, Failed and
	// DeleteFailed where a fatal error ends it.
	Init, InitDelete, Failed, DeleteFailed P
	// OnStart resets kind-specific status when a job starts; may be nil.
	OnStart func(T)
	// OnFinish runs before the status write that finishes a job of an object
	// that is not being deleted, whatever the final phase; may be nil. The
	// installation controller records the dependents to trigger there, as
	// Landscaper does in the same write. An error leaves the status
	// unwritten and is retried.
	OnFinish func(ctx context.Context, obj T) error
	// Run does the work of the object's current phase and returns the next
	// phase, "" to wait in the current one (the status it changed is
	// written), or Gone; or an error, see Handle.
	Run func(ctx context.Context, obj T) (P, error)
}

// Handle runs phases until one has to wait or the flow ends. An object whose
// phase is empty or final first enters Init (InitDelete when it is being
// deleted). Phases fall through within one call as long as each succeeds, as
// in Landscaper. An error of a phase is recorded in lastError (see
// reconcile.LastError) and then:
//   - a fatal one (reconcile.Fatal, reconcile.TerminalError) ends the flow in
//     Failed (DeleteFailed while deleting) and is not returned;
//   - one with code ERR_NO_RETRY keeps the phase and waits for the next
//     change without a retry (Landscaper's "not finished yet");
//   - any other keeps the phase and is returned, so the run loop retries it
//     with growing intervals.
func (m *Machine[T, P]) Handle(ctx context.Context, obj T) error {
	st := m.Status(obj)
	if *st.Phase == "" || (*st.Phase).IsFinal() {
		if err := m.start(ctx, obj); err != nil {
			return err
		}
	}
	for {
		next, err := m.Run(ctx, obj)
		if err != nil {
			return m.fail(ctx, obj, err)
		}
		switch next {
		case P(Gone):
			return nil
		case "":
			return m.write(ctx, obj, *st.Phase)
		}
		if err := m.Set(ctx, obj, next); err != nil || next.IsFinal() {
			return err
		}
	}
}

// start begins a new job in Init or InitDelete.
func (m *Machine[T, P]) start(ctx context.Context, obj T) error {
	first := m.Init
	if obj.GetDeletionTimestamp() != nil {
		first = m.InitDelete
	}
	if m.OnStart != nil {
		m.OnStart(obj)
	}
	m.Status(obj).Start(first, obj.GetGeneration(), m.Clock.Now())
	return m.write(ctx, obj, first)
}

// Set writes phase; a final phase also finishes the job.
func (m *Machine[T, P]) Set(ctx context.Context, obj T, phase P) error {
	m.Status(obj).Set(phase, m.Clock.Now())
	return m.finishAndWrite(ctx, obj, phase)
}

// finishAndWrite runs OnFinish when phase finished the job, then writes the
// status.
func (m *Machine[T, P]) finishAndWrite(ctx context.Context, obj T, phase P) error {
	if phase.IsFinal() && m.OnFinish != nil && obj.GetDeletionTimestamp() == nil {
		if err := m.OnFinish(ctx, obj); err != nil {
			return err
		}
	}
	return m.write(ctx, obj, phase)
}

func (m *Machine[T, P]) write(ctx context.Context, obj T, phase P) error {
	if err := m.Client.UpdateStatus(ctx, obj); err != nil {
		return fmt.Errorf("set phase %s: %w", phase, err)
	}
	return nil
}

// fail records err and decides what follows, see Handle. Where the
// lastError has Landscaper's words for err, the run's report gets lscli's
// (reconcile.Explain).
func (m *Machine[T, P]) fail(ctx context.Context, obj T, err error) error {
	st := m.Status(obj)
	fatal := st.Fail(err, m.Failed, m.DeleteFailed, m.Clock.Now())
	reconcile.Explain(ctx, kindOf(obj), types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, *st.JobID, *st.LastError, err)
	if uerr := m.finishAndWrite(ctx, obj, *st.Phase); uerr != nil || fatal {
		return uerr
	}
	if reconcile.HasCode(err, lsv1alpha1.ErrorNoRetry) {
		return nil
	}
	return err
}

// kindOf is the kind of obj, the name of its type (e.g. Installation).
func kindOf(obj fakecluster.Object) string {
	return reflect.TypeOf(obj).Elem().Name()
}
