package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/lscli/lscli/state"
)

// timeline is a small timeline; the last entries are out of time order and
// in a zone other than UTC.
func timeline() []state.Event {
	at := func(d time.Duration) time.Time { return epoch.Add(d) }
	return []state.Event{
		{Time: at(0), Kind: "Installation", Namespace: "example", Name: "demo", Type: state.EventCreated},
		{Time: at(0), Kind: "Installation", Namespace: "example", Name: "demo", Type: state.EventAnnotated,
			Message: "landscaper.gardener.cloud/operation=reconcile"},
		{Time: at(time.Second), Kind: "Installation", Namespace: "example", Name: "demo", Type: state.EventJobStarted, JobID: job1},
		{Time: at(time.Second), Kind: "Installation", Namespace: "example", Name: "demo", Type: state.EventPhaseChanged,
			Phase: "Init", JobID: job1},
		{Time: at(10 * time.Millisecond), Kind: "DeployItem", Namespace: "example", Name: "demo-chart-a1b2c",
			Type: state.EventPhaseChanged, Phase: "Failed", JobID: job1, Message: "unable to apply:\nconnection refused"},
		{Time: at(2 * time.Second).In(time.FixedZone("CEST", 2*3600)), Kind: "Installation", Namespace: "example", Name: "demo",
			Type: state.EventPhaseChanged, Phase: "Succeeded", JobID: job1},
		{Time: at(2 * time.Second), Kind: "Installation", Namespace: "example", Name: "demo", Type: state.EventJobFinished, JobID: job1},
		{Time: at(3 * time.Second), Kind: "DeployItem", Namespace: "example", Name: "demo-chart-a1b2c", Type: state.EventDeleted,
			Message: "garbage collected:\ttab"},
	}
}

func TestEventsGolden(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		st     Styles
	}{
		{name: "plain", golden: "events", st: plainStyles()},
		{name: "color", golden: "events-color", st: colorStyles()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Events(timeline(), tt.st)
			if !tt.st.Enabled() {
				noEscapes(t, got)
			} else if stripSeqs(got) != Events(timeline(), plainStyles()) {
				t.Errorf("colored events shift the columns")
			}
			checkGolden(t, tt.golden, got)
		})
	}
}

func TestEventsEmpty(t *testing.T) {
	if got := Events(nil, plainStyles()); got != NoEvents {
		t.Errorf("Events(nil) = %q, want %q", got, NoEvents)
	}
}

func TestEventsJSONGolden(t *testing.T) {
	var out bytes.Buffer
	if err := EventsJSON(timeline(), &out); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "events-json", out.String())
}

// TestEventsJSONContract checks the `lscli events -o json` contract: the
// state.Event shape, oldest first, times in UTC with Z.
func TestEventsJSONContract(t *testing.T) {
	in := timeline()
	var out bytes.Buffer
	if err := EventsJSON(in, &out); err != nil {
		t.Fatal(err)
	}
	var generic []map[string]any
	if err := json.Unmarshal(out.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"time": true, "kind": true, "namespace": true, "name": true, "type": true,
		"phase": true, "jobID": true, "message": true}
	var prev time.Time
	for i, e := range generic {
		for k := range e {
			if !allowed[k] {
				t.Errorf("entry %d has field %q, not in state.Event", i, k)
			}
		}
		ts, _ := e["time"].(string)
		if ts == "" || ts[len(ts)-1] != 'Z' {
			t.Errorf("entry %d time %q is not UTC with Z", i, ts)
		}
		parsed, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			t.Errorf("entry %d time %q is not RFC 3339: %v", i, ts, err)
		}
		if parsed.Before(prev) {
			t.Errorf("entry %d at %s is older than the one before", i, ts)
		}
		prev = parsed
	}
	var back []state.Event
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(in) {
		t.Fatalf("got %d entries, want %d", len(back), len(in))
	}
	if !reflect.DeepEqual(in[1], back[1]) {
		t.Errorf("entry round trip: got %+v, want %+v", back[1], in[1])
	}
	if !in[5].Time.Equal(back[5].Time) || in[5].Time.Location() == time.UTC {
		t.Errorf("EventsJSON changed its input or lost the instant: in %v, out %v", in[5].Time, back[5].Time)
	}
}

func TestEventsJSONEmpty(t *testing.T) {
	for _, events := range [][]state.Event{nil, {}} {
		var out bytes.Buffer
		if err := EventsJSON(events, &out); err != nil {
			t.Fatal(err)
		}
		if out.String() != "[]\n" {
			t.Errorf("EventsJSON(%#v) = %q, want %q", events, out.String(), "[]\n")
		}
	}
}

// TestEventsOddPhase checks a styled last cell whose trailing spaces the
// table trims.
func TestEventsOddPhase(t *testing.T) {
	events := []state.Event{{Time: epoch, Kind: "DeployItem", Name: "d", Type: state.EventPhaseChanged, Phase: "Odd  "}}
	got := Events(events, colorStyles())
	want := "\x1b[1mTIME                   KIND         NAMESPACE/NAME   TYPE           DETAIL\x1b[0m\n" +
		"2006-01-02T15:04:05Z   DeployItem   d                PhaseChanged   \x1b[33mOdd\x1b[0m\n"
	if got != want {
		t.Errorf("Events =\n%q\nwant\n%q", got, want)
	}
}

// TestEventsJSONStreams: the streamed events are the bytes encoding/json's
// indenting encoder gives for the whole sorted timeline in UTC, for more
// events than a round, with strings JSON escapes (or, for <, > and &, does
// not), times with and without fractions and in other zones, and events
// out of order.
func TestEventsJSONStreams(t *testing.T) {
	strs := []string{"", "plain", "<&>", "quote \" back \\", "line\nbreak\ttab", "\u2028é☃", "\x01"}
	var events []state.Event
	for i := range listRound*2 + 7 {
		at := epoch.Add(time.Duration(i%97) * 1500 * time.Millisecond)
		if i%5 == 0 {
			at = at.In(time.FixedZone("X", -7*3600))
		}
		events = append(events, state.Event{Time: at, Kind: "Installation", Namespace: strs[i%2], Name: strs[i%len(strs)],
			Type: state.EventPhaseChanged, Phase: strs[(i+1)%len(strs)], JobID: strs[(i+2)%len(strs)], Message: strs[(i+3)%len(strs)]})
	}
	for _, n := range []int{1, 2, len(events)} {
		want := oldestFirst(events[:n])
		want = append([]state.Event(nil), want...)
		for i := range want {
			want[i].Time = want[i].Time.UTC()
		}
		wantBytes, err := marshalJSON(want, "    ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := EventsJSON(events[:n], &got); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(wantBytes) {
			t.Fatalf("%d events:\n got %s\nwant %s", n, got.String(), wantBytes)
		}
	}
}
