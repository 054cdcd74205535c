package state

import "time"

// EventType names the kind of change an Event records.
type EventType string

// The event types of the timeline. They are part of the `lscli events -o json`
// contract: add new ones, never rename.
const (
	EventCreated           EventType = "Created"
	EventSpecChanged       EventType = "SpecChanged"
	EventAnnotated         EventType = "Annotated"
	EventPhaseChanged      EventType = "PhaseChanged"
	EventJobStarted        EventType = "JobStarted"
	EventJobFinished       EventType = "JobFinished"
	EventDeletionRequested EventType = "DeletionRequested"
	EventDeleted           EventType = "Deleted"
)

// Event is one entry of the timeline: one change to one object at one instant
// of virtual time. Its JSON form is the `lscli events -o json` contract.
type Event struct {
	Time      time.Time `json:"time"`
	Kind      string    `json:"kind"`
	Namespace string    `json:"namespace"`
	Name      string    `json:"name"`
	Type      EventType `json:"type"`
	// Phase is the new phase, for PhaseChanged.
	Phase string `json:"phase,omitempty"`
	// JobID is the object's status.jobID after the change, if it has one.
	JobID   string `json:"jobID,omitempty"`
	Message string `json:"message,omitempty"`
}
