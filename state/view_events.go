package state

import (
	"bytes"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeEvents decodes the timeline's lines on all cores. Lines in the form
// Save writes are read token by token, with a string equal to the one at
// the same place of the line before (a kind, a namespace, often a name)
// shared; any other line is decoded as decodeEvent decodes it, so the
// result is the same either way.
func decodeEvents(lines []line) ([]Event, error) {
	return decodeLinesWith(lines, func() func([]byte, *Event) error {
		var r eventReader
		return func(data []byte, e *Event) error {
			if r.read(data, e) {
				return nil
			}
			*e = Event{}
			return decodeEvent(data, e)
		}
	})
}

// eventReader reads event lines with one decoder, keeping the strings of
// the line before.
type eventReader struct {
	rd   bytes.Reader
	dec  jsontext.Decoder
	last [16]string
	// lastTime is the time last parsed, from lastTimeText, if timeOK.
	lastTime     time.Time
	lastTimeText string
	timeOK       bool
}

// read decodes the event line data into e, and reports false when the line
// holds anything else than the event's fields as plain strings.
func (r *eventReader) read(data []byte, e *Event) bool {
	r.rd.Reset(data)
	r.dec.Reset(&r.rd, jsontext.AllowDuplicateNames(true))
	if !readDelim(&r.dec, '{') {
		return false
	}
	for pos := 0; r.dec.PeekKind() == '"'; pos += 2 {
		name, ok := r.str(pos)
		if !ok {
			return false
		}
		value, ok := r.str(pos + 1)
		if !ok {
			return false
		}
		switch name {
		case "time":
			if !r.timeOK || value != r.lastTimeText {
				t, err := time.Parse(time.RFC3339Nano, value)
				if err != nil {
					return false
				}
				r.lastTime, r.lastTimeText, r.timeOK = t, value, true
			}
			e.Time = r.lastTime
		case "kind":
			e.Kind = value
		case "namespace":
			e.Namespace = value
		case "name":
			e.Name = value
		case "type":
			e.Type = EventType(value)
		case "phase":
			e.Phase = value
		case "jobID":
			e.JobID = value
		case "message":
			e.Message = value
		default:
			return false
		}
	}
	return readDelim(&r.dec, '}') && r.dec.PeekKind() == 0
}

// str reads a string without escapes, the pos-th of the line, shared with
// the string at pos of the line before when they are equal.
func (r *eventReader) str(pos int) (string, bool) {
	raw, err := r.dec.ReadValue()
	if err != nil || len(raw) < 2 || raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	b := raw[1 : len(raw)-1]
	if pos >= len(r.last) {
		return string(b), true
	}
	if r.last[pos] != string(b) {
		r.last[pos] = string(b)
	}
	return r.last[pos], true
}
