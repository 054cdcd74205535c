package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/engine"
)

// formatVersion is the layout version Save writes and Load reads. Bump it on
// any change an older lscli would misread.
const formatVersion = 1

// header is the first line of the state file: the scalar parts of a Snapshot.
type header struct {
	Version int       `json:"version"`
	Seed    uint64    `json:"seed"`
	Rand    []byte    `json:"rand"`
	Clock   time.Time `json:"clock"`
}

// sectionNames are the arrays of the state file, in file order.
var sectionNames = [...]string{"timers", "events", "objects"}

// Save writes snap to <folder>/state.json, creating the folder if needed.
// Objects are written with apiVersion and kind from scheme (snap is not
// changed), Executions with spec.deployItems in clear. The write is atomic:
// Save writes a temporary file next to the state file, syncs it and renames it
// over the state file, so a failure or crash at any point leaves either the
// old or the new state, never a mix. The file is readable by its owner only,
// since it holds Secrets.
func (d *Dir) Save(snap *engine.Snapshot, scheme *runtime.Scheme) error {
	parts, err := encode(snap, scheme)
	if err != nil {
		return fmt.Errorf("save state %s: %w", show(d.file(stateFileName)), err)
	}
	return d.writeAtomic(parts)
}

// encode renders the state file as a list of byte slices to write in order:
// a header line, then each section as a JSON array with one element a line.
func encode(snap *engine.Snapshot, scheme *runtime.Scheme) ([][]byte, error) {
	h, err := json.Marshal(header{Version: formatVersion, Seed: snap.Seed, Rand: snap.Rand, Clock: snap.Clock})
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	parts := [][]byte{h[:len(h)-1], []byte(",\n")}
	sections := [len(sectionNames)]func() ([][]byte, error){
		func() ([][]byte, error) {
			return encodeLines(len(snap.Timers), func(i int) (any, error) { return &snap.Timers[i], nil },
				func(i int) string { return fmt.Sprintf("timer %d", i) })
		},
		func() ([][]byte, error) {
			return encodeLines(len(snap.Events), func(i int) (any, error) { return &snap.Events[i], nil },
				func(i int) string { return fmt.Sprintf("event %d", i) })
		},
		func() ([][]byte, error) {
			return encodeLines(len(snap.Objects), func(i int) (any, error) { return wireObject(scheme, snap.Objects[i]) },
				func(i int) string { return describe(scheme, snap.Objects[i]) })
		},
	}
	for s, name := range sectionNames {
		lines, err := sections[s]()
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		parts = append(parts, []byte(`"`+name+`":[`+"\n"))
		parts = append(parts, lines...)
		parts = append(parts, []byte(sectionEnd(s)+"\n"))
	}
	return parts, nil
}

// sectionEnd closes section s: "]," before another section, "]}" at the end.
func sectionEnd(s int) string {
	if s == len(sectionNames)-1 {
		return "]}"
	}
	return "],"
}

// encodeLines encodes n elements as compact JSON, one a line, separated by
// commas. It returns one buffer per parallel chunk. elem returns the value to
// encode for element i; name names it in errors.
func encodeLines(n int, elem func(i int) (any, error), name func(i int) string) ([][]byte, error) {
	bufs := make([][]byte, len(chunks(n)))
	err := forChunks(n, func(c, lo, hi int) error {
		var buf bytes.Buffer
		buf.Grow((hi - lo) * 512)
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // keep <, > and & readable
		for i := lo; i < hi; i++ {
			v, err := elem(i)
			if err != nil {
				return err
			}
			if err := enc.Encode(v); err != nil {
				return fmt.Errorf("%s: %w", name(i), err)
			}
			buf.Truncate(buf.Len() - 1) // Encode ends with a newline
			buf.WriteString(",\n")
		}
		bufs[c] = buf.Bytes()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if last := len(bufs) - 1; last >= 0 {
		b := bufs[last]
		bufs[last] = append(b[:len(b)-2], '\n') // no comma after the last element
	}
	return bufs, nil
}

// writeAtomic writes parts to a temporary file in the folder, syncs it and
// renames it over the state file. On failure it removes the temporary file
// and leaves the state file as it was.
func (d *Dir) writeAtomic(parts [][]byte) (err error) {
	target := d.file(stateFileName)
	if err := os.MkdirAll(d.dir(), 0o755); err != nil {
		return fmt.Errorf("save state: create folder: %w", err)
	}
	create := d.createTemp
	if create == nil {
		create = func(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
	}
	f, err := create(d.dir(), tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("save state %s: %w", show(target), err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
			err = fmt.Errorf("save state %s: %w", show(target), err)
		}
	}()
	for _, p := range parts {
		if _, err := f.Write(p); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return err
	}
	// The new state is in place. Syncing the folder makes the rename itself
	// durable; some file systems refuse it, which loses nothing but
	// durability, so its error is ignored.
	_ = syncDir(d.dir())
	return nil
}
