package flow

import (
	"context"
	"fmt"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// Gone is the phase a handler returns after it removed the object: the flow
// stops without writing status.
const Gone = "<gone>"

// Machine walks objects of one kind (T, with phases P) through their phases.
// All fields are required.
type Machine[T fakecluster.Object, P Phase] struct {
	// Client writes the status.
	Client fakecluster.Writer
	// Clock stamps phase transitions.
	Clock reconcile.Clock
	// Status returns the flow fields of an object.
	Status func(T) Status[P]
	// Init and InitDelete are the first phases of a job, Failed and
	// DeleteFailed where a terminal error ends it.
	Init, InitDelete, Failed, DeleteFailed P
	// OnStart resets kind-specific status when a job starts; may be nil.
	OnStart func(T)
	// Run does the work of the object's current phase and returns the next
	// phase, "" to wait in the current one, or Gone.
	Run func(ctx context.Context, obj T) (P, error)
}

// Handle runs phases until one has to wait or the flow ends. An object whose
// phase is empty or final first enters Init (InitDelete when it is being
// deleted). Phases fall through within one call as long as each succeeds, as
// in Landscaper. A normal error is recorded in lastError and returned, so the
// run loop retries it with growing intervals; a terminal one ends the flow in
// Failed (DeleteFailed while deleting) and is not returned.
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
		if next == "" || next == P(Gone) {
			return nil
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
	return m.write(ctx, obj, phase)
}

func (m *Machine[T, P]) write(ctx context.Context, obj T, phase P) error {
	if err := m.Client.UpdateStatus(ctx, obj); err != nil {
		return fmt.Errorf("set phase %s: %w", phase, err)
	}
	return nil
}

// fail records err. A terminal error ends the flow in Failed (DeleteFailed
// while deleting); a normal one is returned for a retry.
func (m *Machine[T, P]) fail(ctx context.Context, obj T, err error) error {
	st := m.Status(obj)
	terminal := st.Fail(err, m.Failed, m.DeleteFailed, m.Clock.Now())
	if uerr := m.write(ctx, obj, *st.Phase); uerr != nil || terminal {
		return uerr
	}
	return err
}
