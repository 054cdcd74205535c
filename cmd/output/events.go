package output

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/parallel"
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
	sorted := oldestFirst(events)
	if !st.Enabled() {
		// Without styles the cells are aligned as they are: no table of
		// cells is built, which matters for long timelines.
		lines := make([][]string, len(sorted)+1)
		lines[0] = eventsHeader
		cells := make([]string, 5*len(sorted))
		_ = parallel.ForChunks(len(sorted), minParallel, func(_, lo, hi int) error {
			var last time.Time
			var lastText string
			for i := lo; i < hi; i++ {
				e := &sorted[i]
				if i == lo || !e.Time.Equal(last) {
					last, lastText = e.Time, e.Time.UTC().Format(time.RFC3339)
				}
				row := cells[5*i : 5*i+5 : 5*i+5]
				row[0], row[1], row[2], row[3], row[4] = lastText, oneLine(e.Kind), oneLine(eventName(*e)),
					oneLine(string(e.Type)), oneLine(eventDetail(*e).text)
				lines[i+1] = row
			}
			return nil
		})
		return alignLines(lines)
	}
	t := &table{header: eventsHeader}
	for _, e := range sorted {
		t.rows = append(t.rows, []cell{
			plain(e.Time.UTC().Format(time.RFC3339)),
			plain(e.Kind),
			plain(eventName(e)),
			plain(string(e.Type)),
			eventDetail(e),
		})
	}
	return t.render(st)
}

// eventsHeader is the header of the timeline's table.
var eventsHeader = []string{"TIME", "KIND", "NAMESPACE/NAME", "TYPE", "DETAIL"}

// eventName is the event's object as namespace/name, or name.
func eventName(e state.Event) string {
	if e.Namespace == "" {
		return e.Name
	}
	return e.Namespace + "/" + e.Name
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
	return writeItems(len(sorted), w, eventsList, func(i int, dst, scratch []byte) ([]byte, []byte, error) {
		e := sorted[i]
		e.Time = e.Time.UTC()
		buf := bytes.NewBuffer(dst)
		if err := eventIndenter.Append(buf, &e); err != nil {
			return dst, scratch, fmt.Errorf("encode event %d: %w", i, err)
		}
		return buf.Bytes(), scratch, nil
	})
}

// eventsList is the form of encoding/json's indented array of events:
// each event on its own, in parallel, indented as an element.
var eventsList = listForm{empty: "[]\n", head: "[", tail: "\n]\n", first: "\n    ", next: ",\n    "}

// eventIndenter encodes an event as an element of an array indented by 4.
var eventIndenter = fastjson.NewIndenter("    ", "    ")

// oldestFirst returns events sorted by time, events at the same instant in
// their order: events itself when the timeline is in order already, as a
// saved one is, otherwise a sorted copy. Never nil.
func oldestFirst(events []state.Event) []state.Event {
	byTime := func(a, b state.Event) int { return a.Time.Compare(b.Time) }
	if events == nil {
		return []state.Event{}
	}
	if slices.IsSortedFunc(events, byTime) {
		return events
	}
	sorted := slices.Clone(events)
	slices.SortStableFunc(sorted, byTime)
	return sorted
}
