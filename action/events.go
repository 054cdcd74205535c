package action

import (
	"context"
	"errors"

	"github.com/lscli/lscli/state"
)

// Events reads the timeline of the saved simulation and runs nothing:
// `lscli events`.
type Events struct {
	cfg *Configuration
	// Namespace narrows the events; empty means every namespace.
	Namespace string
	// Kind narrows the events to objects of this kind (a kind, plural or
	// short name, see ResolveKind); empty means every kind.
	Kind string
	// Name narrows the events to objects of this name; empty means every
	// object. A name that has no events is invalid input, unless Kind is
	// empty and Name is a kind (then it is the kind: `lscli events di`).
	Name string
}

// NewEvents returns the events action over cfg.
func NewEvents(cfg *Configuration) *Events { return &Events{cfg: cfg} }

// Run returns the timeline, oldest first, narrowed to the namespace, kind
// and name. Where there is no simulation yet, it returns a NoStateError
// (invalid input when a name was asked for).
func (a *Events) Run(_ context.Context) ([]state.Event, error) {
	kind := ""
	if a.Kind != "" {
		var err error
		if kind, err = ResolveKind(a.Kind); err != nil {
			return nil, err
		}
	}
	r, err := openReading(a.cfg, false)
	if err != nil {
		if errors.Is(err, state.ErrNoState) && a.Name != "" {
			return nil, notFoundWithoutState(a.cfg, orText(kind, "object"), a.Name)
		}
		return nil, err
	}
	defer r.close()
	all, err := r.events()
	if err != nil {
		return nil, err
	}
	events := eventsOf(all, a.Namespace, kind, a.Name)
	if len(events) == 0 && kind == "" && a.Name != "" {
		// A single argument that no object is named is a kind: events di.
		if k, err := ResolveKind(a.Name); err == nil {
			return eventsOf(all, a.Namespace, k, ""), nil
		}
	}
	if a.Name != "" && len(events) == 0 {
		return nil, Invalidf("%s %q has no events%s: the timeline has no such object", orText(kind, "object"), a.Name, inNamespaceText(a.Namespace))
	}
	return events, nil
}

// eventsOf keeps the events of namespace ns, kind and name; empty values
// keep all.
func eventsOf(all []state.Event, ns, kind, name string) []state.Event {
	if ns == "" && kind == "" && name == "" {
		return all
	}
	var events []state.Event
	for _, e := range all {
		if (ns == "" || e.Namespace == ns) && (kind == "" || e.Kind == kind) && (name == "" || e.Name == name) {
			events = append(events, e)
		}
	}
	return events
}

// orText returns s, or def when s is empty.
func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
