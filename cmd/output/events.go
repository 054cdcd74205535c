package output

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/lscli/lscli/state"
)

// NoEvents is what Events prints for an empty timeline.
const NoEvents = "No events.\n"

// Events shows the timeline as aligned columns
// TIME KIND NAMESPACE/NAME TYPE DETAIL, one line per event, oldest first.
// TIME is RFC 3339 in UTC with a Z, to the second. DETAIL is the new phase
// (colored) for PhaseChanged, otherwise the message; a JobStarted or
// JobFinished event without a message shows "job <jobID>". Events returns
// NoEvents for an empty timeline. It is a pure function.
func Events(events []state.Event, st Styles) string {
	if len(events) == 0 {
		return NoEvents
	}
	t := &table{header: []string{"TIME", "KIND", "NAMESPACE/NAME", "TYPE", "DETAIL"}}
	for _, e := range oldestFirst(events) {
		name := e.Name
		if e.Namespace != "" {
			name = e.Namespace + "/" + e.Name
		}
		t.rows = append(t.rows, []cell{
			plain(e.Time.UTC().Format(time.RFC3339)),
			plain(e.Kind),
			plain(name),
			plain(string(e.Type)),
			eventDetail(e),
		})
	}
	return t.render(st)
}

func eventDetail(e state.Event) cell {
	switch {
	case e.Type == state.EventPhaseChanged:
		return cell{text: orDash(e.Phase), style: Styles.Phase}
	case e.Message != "":
		return plain(e.Message)
	case (e.Type == state.EventJobStarted || e.Type == state.EventJobFinished) && e.JobID != "":
		return plain("job " + e.JobID)
	}
	return plain("")
}

// EventsJSON writes the timeline to w as a JSON list indented by 4 spaces,
// oldest first (events at the same instant keep their order). Each entry
// has exactly the JSON shape of state.Event, with its time in UTC (RFC 3339
// with a Z). An empty timeline is "[]".
func EventsJSON(events []state.Event, w io.Writer) error {
	sorted := oldestFirst(events)
	for i := range sorted {
		sorted[i].Time = sorted[i].Time.UTC()
	}
	data, err := marshalJSON(sorted, "    ")
	if err != nil {
		return fmt.Errorf("encode events: %w", err)
	}
	_, err = w.Write(data)
	return err
}

// oldestFirst returns a sorted copy of events; never nil.
func oldestFirst(events []state.Event) []state.Event {
	sorted := make([]state.Event, len(events))
	copy(sorted, events)
	slices.SortStableFunc(sorted, func(a, b state.Event) int { return a.Time.Compare(b.Time) })
	return sorted
}
