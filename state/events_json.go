package state

import (
	"time"

	"github.com/lscli/lscli/internal/fastjson"
)

// appendJSON appends e as fastjson.Marshal encodes it, and reports whether
// it could: every string of e must be printable ASCII without quotes or
// backslashes, which JSON writes as it is, and the time's year within
// 0–9999 and its zone's offset under a day, which time.Time's MarshalJSON
// requires. Every event lscli
// records is such an event in practice (kinds, names, phases, job IDs,
// annotations); any other is left to the encoder. Encoding the 350,000
// events of a big run this way takes a fraction of the encoder's time
// (TestEventAppendJSONIsMarshal).
func (e *Event) appendJSON(dst []byte) ([]byte, bool) {
	if y := e.Time.Year(); y < 0 || y > 9999 {
		return dst, false
	}
	if _, offset := e.Time.Zone(); offset <= -24*3600 || offset >= 24*3600 {
		return dst, false // MarshalJSON refuses an offset of a day or more
	}
	n := len(dst)
	dst = append(dst, `{"time":"`...)
	dst = e.Time.AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	ok := true
	field := func(name, v string, omitEmpty bool) {
		if !ok || (omitEmpty && v == "") {
			return
		}
		if !fastjson.WrittenAsIs(v) {
			ok = false
			return
		}
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `":"`...)
		dst = append(dst, v...)
		dst = append(dst, '"')
	}
	field("kind", e.Kind, false)
	field("namespace", e.Namespace, false)
	field("name", e.Name, false)
	field("type", string(e.Type), false)
	field("phase", e.Phase, true)
	field("jobID", e.JobID, true)
	field("message", e.Message, true)
	if !ok {
		return dst[:n], false
	}
	return append(dst, '}'), true
}
