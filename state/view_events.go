package state

import (
	"time"
	"unicode/utf8"
)

// decodeEvents decodes the timeline's lines on all cores. Lines in the form
// Save writes are scanned byte by byte, with a string equal to the one at
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

// eventReader reads event lines, keeping the strings of the line before.
type eventReader struct {
	last [16]string
	// lastTime is the time last parsed, from lastTimeText, if timeOK.
	lastTime     time.Time
	lastTimeText string
	timeOK       bool
}

// read decodes the event line data into e, and reports false when the line
// holds anything else than the event's fields as plain strings (no
// escapes, no control characters, valid UTF-8), compact as Save writes it.
func (r *eventReader) read(data []byte, e *Event) bool {
	s := byteScanner{b: data}
	if !s.lit("{") {
		return false
	}
	for pos := 0; !s.lit("}"); pos += 2 {
		if pos > 0 && !s.lit(",") {
			return false
		}
		name, ok := r.str(&s, pos)
		if !ok || !s.lit(":") {
			return false
		}
		value, ok := r.str(&s, pos+1)
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
	return len(s.b) == 0
}

// str reads a plain string, the pos-th of the line, shared with the
// string at pos of the line before when they are equal.
func (r *eventReader) str(s *byteScanner, pos int) (string, bool) {
	b, ok := s.str()
	if !ok || !plain(b) {
		return "", false
	}
	if pos >= len(r.last) {
		return string(b), true
	}
	if r.last[pos] != string(b) {
		r.last[pos] = string(b)
	}
	return r.last[pos], true
}

// plain reports whether b, a JSON string's bytes without escapes, is valid
// UTF-8 without control characters, as a JSON decoder would accept it.
func plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return utf8.Valid(b)
}
