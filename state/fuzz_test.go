package state

import (
	"bytes"
	"testing"
)

// FuzzDecode decodes state files of any content: decode returns a snapshot
// or an error, never panics; a snapshot it returns saves and decodes again
// to the same file. The seed corpus is in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	scheme := testScheme()
	var saved bytes.Buffer
	if err := encode(&saved, sampleSnapshot(), scheme, nil, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(saved.Bytes())
	// An Execution whose spec is null, which Landscaper's own decoding of
	// the spec cannot read.
	lines := bytes.Split(saved.Bytes(), []byte("\n"))
	for i, l := range lines {
		if start, end := bytes.Index(l, []byte(`"spec":`)), bytes.Index(l, []byte(`,"status":`)); bytes.HasPrefix(l, []byte(`{"kind":"Execution"`)) && start > 0 && end > start {
			lines[i] = append(append(append([]byte{}, l[:start]...), `"spec":null`...), l[end:]...)
		}
	}
	f.Add(bytes.Join(lines, []byte("\n")))
	f.Add([]byte(`{"version":1,"seed":1,"rand":null,"clock":"2025-01-01T00:00:00Z","timers":[],"events":[],"objects":[]}`))
	f.Add([]byte(`{"version":1,"objects":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := decode(data, scheme)
		if err != nil {
			return
		}
		var first, second bytes.Buffer
		if err := encode(&first, snap, scheme, nil, nil); err != nil {
			return // e.g. a Secret whose data does not encode; decoding it was fine
		}
		again, err := decode(first.Bytes(), scheme)
		if err != nil {
			t.Fatalf("a saved state does not load: %v\n%s", err, first.Bytes())
		}
		if err := encode(&second, again, scheme, nil, nil); err != nil || !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("save, load, save differs (%v):\n%s\n%s", err, first.Bytes(), second.Bytes())
		}
	})
}
