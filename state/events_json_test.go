package state

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lscli/lscli/internal/fastjson"
)

// TestEventAppendJSONIsMarshal: appendJSON gives fastjson.Marshal's bytes
// for every event it takes, takes the events lscli records, and leaves the
// others (strings JSON escapes, years time.Time cannot encode) alone.
func TestEventAppendJSONIsMarshal(t *testing.T) {
	strs := []string{"", "Installation", "bench", "inst-00001", "landscaper.gardener.cloud/operation=reconcile", "a b~!#$%&'()*+,-./:;<=>?@[]^_`{|}",
		`say "hi"`, `back\slash`, "new\nline", "tab\t", "é", "\u2028", "\x7f", "\xff"}
	zones := []*time.Location{time.UTC, time.FixedZone("x", 3600), time.FixedZone("y", -5*3600-1800),
		time.FixedZone("s", 3600+17), time.FixedZone("day", 24*3600), time.FixedZone("-day", -24*3600-60)}
	rnd := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return strs[rnd.IntN(len(strs))] }
	taken := 0
	for i := range 3000 {
		e := Event{Kind: pick(), Namespace: pick(), Name: pick(), Type: EventType(pick()), Phase: pick(), JobID: pick(), Message: pick(),
			Time: time.Unix(rnd.Int64N(1<<34)-1<<33, rnd.Int64N(3)*int64(rnd.IntN(1e9))).In(zones[rnd.IntN(len(zones))])}
		switch i % 50 {
		case 0:
			e.Time = time.Time{}
		case 1:
			e.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		case 2:
			e.Time = time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		if i%3 == 0 { // plain, as lscli's events are
			plain := func() string { return strs[rnd.IntN(6)] }
			e.Kind, e.Namespace, e.Name, e.Type, e.Phase, e.JobID, e.Message = plain(), plain(), plain(), EventType(plain()), plain(), plain(), plain()
		}
		want, werr := fastjson.Marshal(&e)
		got, ok := e.appendJSON([]byte("before"))
		if !ok {
			if string(got) != "before" {
				t.Fatalf("%+v: refused, but left %q", e, got)
			}
			continue
		}
		taken++
		if werr != nil || !bytes.Equal(got, append([]byte("before"), want...)) {
			t.Fatalf("%+v:\nappendJSON %s\nMarshal    %s (%v)", e, got, want, werr)
		}
	}
	if taken < 500 {
		t.Errorf("only %d of 3000 events taken", taken)
	}
	plain := Event{Time: time.Date(2025, 1, 1, 0, 0, 0, 5, time.UTC), Kind: "DeployItem", Namespace: "ns", Name: "n", Type: EventJobFinished, JobID: "j"}
	if _, ok := plain.appendJSON(nil); !ok {
		t.Errorf("%+v not taken", plain)
	}
}
