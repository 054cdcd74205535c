package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

func TestSaveLoadRoundtrip(t *testing.T) {
	scheme := testScheme()
	type roundtrip struct {
		name string
		snap *Snapshot
	}
	tests := []roundtrip{{name: "empty", snap: &Snapshot{Seed: 1, Clock: epoch}}}
	sample := sampleSnapshot()
	for _, obj := range sample.Objects {
		snap := *sample
		snap.Objects = []fakecluster.Object{obj}
		tests = append(tests, roundtrip{name: kindOf(t, scheme, obj), snap: &snap})
	}
	tests = append(tests, roundtrip{name: "every kind", snap: sample}, roundtrip{name: "large", snap: bigSnapshot(300)},
		roundtrip{name: "component roots", snap: &Snapshot{Seed: 1, Clock: epoch, ComponentRoots: []string{"/land/a", "/land/b"}}},
		roundtrip{name: "config file", snap: &Snapshot{Seed: 1, Clock: epoch, ConfigFile: "/land/lscli.yaml"}},
		roundtrip{name: "unserved types", snap: &Snapshot{Seed: 1, Clock: epoch, UnservedTypes: []string{"a.example/x", "b.example/y"}}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			before := toJSON(t, tt.snap.Objects)
			if err := d.Save(tt.snap, scheme); err != nil {
				t.Fatal(err)
			}
			if after := toJSON(t, tt.snap.Objects); after != before {
				t.Fatalf("Save changed the objects:\nbefore %s\nafter  %s", before, after)
			}
			got, err := d.Load(scheme)
			if err != nil {
				t.Fatal(err)
			}
			want := *tt.snap
			want.Objects = withTypeMeta(t, scheme, tt.snap.Objects)
			requireEqual(t, &want, got)
		})
	}
}

func TestSaveWritesDeployItemsInClear(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	snap := &Snapshot{Clock: epoch, Objects: []fakecluster.Object{execution(0)}}
	if err := d.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	text := readState(t, d)
	if !strings.Contains(text, `"deployItems":[{"name":"item-0"`) || strings.Contains(text, "deployItemsCompressed") {
		t.Fatalf("want spec.deployItems in clear, got\n%s", text)
	}
	got, err := d.Load(scheme)
	if err != nil {
		t.Fatal(err)
	}
	ex := got.Objects[0].(*lsv1alpha1.Execution)
	if len(ex.Spec.DeployItems) != 3 || ex.Spec.DeployItemsCompressed != nil {
		t.Fatalf("loaded spec: %d deployItems, %d compressed bytes", len(ex.Spec.DeployItems), len(ex.Spec.DeployItemsCompressed))
	}
}

func TestLoadReadsCompressedDeployItems(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	ex := execution(0)
	ex.SetGroupVersionKind(lsv1alpha1.SchemeGroupVersion.WithKind("Execution"))
	compressed, err := json.Marshal(ex) // Landscaper's own form
	if err != nil {
		t.Fatal(err)
	}
	writeState(t, d, `{"version":1,"seed":0,"rand":null,"clock":"2006-01-02T15:04:05Z",
"timers":[
],
"events":[
],
"objects":[
`+string(compressed)+`
]}
`)
	got, err := d.Load(scheme)
	if err != nil {
		t.Fatal(err)
	}
	want := []fakecluster.Object{ex}
	if !equal.DeepEqual(want, got.Objects) {
		t.Fatalf("want %s\ngot  %s", toJSON(t, want), toJSON(t, got.Objects))
	}
}

func TestLoadOtherLayout(t *testing.T) {
	scheme := testScheme()
	tests := []struct {
		name   string
		layout func(saved []byte) []byte
	}{
		{name: "indented", layout: func(b []byte) []byte {
			var out bytes.Buffer
			if err := json.Indent(&out, b, "", "  "); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}},
		{name: "compact", layout: func(b []byte) []byte {
			var out bytes.Buffer
			if err := json.Compact(&out, b); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}},
		{name: "two objects a line", layout: func(b []byte) []byte {
			return bytes.Replace(b, []byte("},\n{\"kind\":\"Execution\""), []byte("},{\"kind\":\"Execution\""), 1)
		}},
		{name: "CRLF", layout: func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			snap := sampleSnapshot()
			if err := d.Save(snap, scheme); err != nil {
				t.Fatal(err)
			}
			saved := readState(t, d)
			writeState(t, d, string(tt.layout([]byte(saved))))
			got, err := d.Load(scheme)
			if err != nil {
				t.Fatal(err)
			}
			// Raw JSON (an inline blueprint) keeps the new layout's spaces,
			// so compare what Save makes of it.
			if err := d.Save(got, scheme); err != nil {
				t.Fatal(err)
			}
			if resaved := readState(t, d); resaved != saved {
				t.Fatalf("want\n%s\ngot\n%s", saved, resaved)
			}
		})
	}
}

func TestLoadNoState(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, d *Dir)
	}{
		{name: "no folder", setup: func(*testing.T, *Dir) {}},
		{name: "no file", setup: func(t *testing.T, d *Dir) {
			if err := os.Mkdir(d.dir(), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "only a lock", setup: func(t *testing.T, d *Dir) {
			unlock, err := d.Lock()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = unlock() })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			tt.setup(t, d)
			snap, err := d.Load(testScheme())
			if !errors.Is(err, ErrNoState) || snap != nil {
				t.Fatalf("want nil, ErrNoState; got %v, %v", snap, err)
			}
			if err.Error() != "state .lscli: no state yet" {
				t.Fatalf("message: %q", err)
			}
		})
	}
}

func TestLoadCorrupt(t *testing.T) {
	const head = `{"version":1,"seed":0,"rand":null,"clock":"2006-01-02T15:04:05Z",` + "\n"
	const noTimersEvents = "\"timers\":[\n],\n\"events\":[\n],\n"
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{name: "empty", content: "", want: []string{"line 1, column 1: unexpected end of JSON input"}},
		{name: "not JSON", content: "hello\n", want: []string{"line 1, column 1: invalid character 'h'"}},
		{name: "truncated", content: head + noTimersEvents + "\"objects\":[\n{\"kind\":\"Target\",",
			want: []string{"line 7, column 17: unexpected end of JSON input"}},
		{name: "bad object", content: head + noTimersEvents +
			"\"objects\":[\n{\"kind\":\"Target\",\"apiVersion\":\"" + lsAPIVersion + "\",\"metadata\":{\"name\":\"t\",\"namespace\":\"default\"},\"spec\":{\"type\":7}}\n]}\n",
			want: []string{"line 7: Target default/t: json: cannot unmarshal number into Go struct field"}},
		{name: "unknown kind", content: head + noTimersEvents +
			"\"objects\":[\n{\"kind\":\"Frobnicator\",\"apiVersion\":\"" + lsAPIVersion + "\",\"metadata\":{\"name\":\"f\",\"namespace\":\"default\"}},\n{\"kind\":\"Target\",\"apiVersion\":\"" + lsAPIVersion + "\",\"metadata\":{\"name\":\"t\"},\"spec\":{\"type\":\"x\"}}\n]}\n",
			want: []string{"line 7: Frobnicator default/f: unknown kind (apiVersion landscaper.gardener.cloud/v1alpha1)"}},
		{name: "no kind", content: head + noTimersEvents + "\"objects\":[\n{\"metadata\":{\"name\":\"x\"}}\n]}\n",
			want: []string{"line 7: object x has no apiVersion or kind"}},
		{name: "bad event", content: head + "\"timers\":[\n],\n\"events\":[\n{\"time\":\"yesterday\"}\n],\n\"objects\":[\n]}\n",
			want: []string{"line 5: event: parsing time"}},
		{name: "newer version", content: strings.Replace(head, `"version":1`, `"version":2`, 1) + noTimersEvents + "\"objects\":[\n]}\n",
			want: []string{"line 1: format version 2 is not supported (this lscli reads version 1)"}},
		{name: "no version", content: `{"objects":[]}`,
			want: []string{"format version 0 is not supported"}},
		// A state without its objects must not load as an empty simulation.
		{name: "objects null", content: head + noTimersEvents + "\"objects\":null}\n",
			want: []string{`"objects" is null: a state file has version, seed, rand, clock, timers, events, objects`}},
		{name: "objects missing", content: head + "\"timers\":[\n],\n\"events\":[\n]}\n",
			want: []string{`"objects" is missing`}},
		{name: "events missing", content: `{"version":1,"seed":0,"rand":null,"clock":"2006-01-02T15:04:05Z","timers":[],"objects":[]}`,
			want: []string{`"events" is missing`}},
		{name: "clock missing", content: `{"version":1,"seed":0,"rand":null,"timers":[],"events":[],"objects":[]}`,
			want: []string{`"clock" is missing`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			writeState(t, d, tt.content)
			snap, err := d.Load(testScheme())
			if snap != nil || errors.Is(err, ErrNoState) {
				t.Fatalf("want an error other than ErrNoState, got %v, %v", snap, err)
			}
			want := append([]string{"read state .lscli/state.json: ", "(" + resetHint + ")"}, tt.want...)
			requireErrorContains(t, err, want...)
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	d := tempDir(t)
	if err := os.MkdirAll(d.file(stateFileName), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := d.Load(testScheme())
	if errors.Is(err, ErrNoState) {
		t.Fatalf("want a read error, got %v", err)
	}
	requireErrorContains(t, err, "read state: read .lscli/state.json: is a directory")
}

func TestSaveIsAtomic(t *testing.T) {
	scheme := testScheme()
	tests := []struct {
		name  string
		setup func(t *testing.T, d *Dir)
		want  string
	}{
		{name: "write fails", setup: func(_ *testing.T, d *Dir) { d.createTemp = faulty("write", 100) },
			want: "no space left on device"},
		{name: "write fails late", setup: func(_ *testing.T, d *Dir) { d.createTemp = faulty("write", 5000) },
			want: "no space left on device"},
		{name: "sync fails", setup: func(_ *testing.T, d *Dir) { d.createTemp = faulty("sync", 0) },
			want: "save state .lscli/state.json: no space left on device"},
		{name: "temp file cannot be created", setup: func(_ *testing.T, d *Dir) {
			d.createTemp = func(string, string) (tempFile, error) { return nil, os.ErrPermission }
		}, want: "save state .lscli/state.json: permission denied"},
		{name: "encode fails", setup: func(_ *testing.T, d *Dir) {}, want: "encode objects: DataObject default/broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			old := sampleSnapshot()
			if err := d.Save(old, scheme); err != nil {
				t.Fatal(err)
			}
			oldText := readState(t, d)
			tt.setup(t, d)
			next := bigSnapshot(5)
			broken := dataObject(1)
			broken.Name, broken.Data = "broken", lsv1alpha1.NewAnyJSON([]byte("{not json"))
			if tt.name == "encode fails" {
				next.Objects = append(next.Objects, broken)
			}
			requireErrorContains(t, d.Save(next, scheme), tt.want)
			if got := readState(t, d); got != oldText {
				t.Fatalf("state file changed:\n%s", got)
			}
			if names := listDir(t, d); !slices.Equal(names, []string{stateFileName}) {
				t.Fatalf("folder holds %q, want only %s", names, stateFileName)
			}
		})
	}
}

func faulty(op string, after int) func(dir, pattern string) (tempFile, error) {
	return func(dir, pattern string) (tempFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		return &faultyTemp{File: f, fail: op, failAfter: after}, nil
	}
}

func TestSaveRenameFails(t *testing.T) {
	d := tempDir(t)
	// A non-empty folder where the state file belongs makes the rename fail.
	if err := os.MkdirAll(filepath.Join(d.file(stateFileName), "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := d.Save(sampleSnapshot(), testScheme())
	requireErrorContains(t, err, "save state .lscli/state.json: rename ")
	if names := listDir(t, d); !slices.Equal(names, []string{stateFileName}) {
		t.Fatalf("folder holds %q, want only %s", names, stateFileName)
	}
}

func TestSaveReplacesState(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	for _, snap := range []*Snapshot{bigSnapshot(3), sampleSnapshot()} {
		if err := d.Save(snap, scheme); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.Load(scheme)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleSnapshot()
	want.Objects = withTypeMeta(t, scheme, want.Objects)
	requireEqual(t, want, got)
	if info, err := os.Stat(d.file(stateFileName)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode: %v, %v", info, err)
	}
}

// TestSaveRemovesStaleTempFiles: a save killed before its rename leaves a
// temporary file; the next save removes it.
func TestSaveRemovesStaleTempFiles(t *testing.T) {
	d := tempDir(t)
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{tempPrefix + "123", tempPrefix + "456"} {
		if err := os.WriteFile(d.file(name), []byte(`{"version":1,`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	if names := listDir(t, d); !slices.Equal(names, []string{stateFileName}) {
		t.Fatalf("folder holds %q, want only %s", names, stateFileName)
	}
}

// TestObjectErrorNamesTheLine: an object Load returned but the simulation
// cannot take (a duplicate, say) is reported as Load reports a bad line:
// the file, the object's line (its index in a file laid out otherwise) and
// what to do.
func TestObjectErrorNamesTheLine(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	if err := d.Save(sampleSnapshot(), scheme); err != nil {
		t.Fatal(err)
	}
	saved := readState(t, d)
	lines := strings.Split(saved, "\n")
	second := slices.Index(lines, `"objects":[`) + 3 // line numbers count from 1
	for _, tt := range []struct {
		name, content, where string
	}{
		{name: "one object a line", content: saved, where: fmt.Sprintf("line %d: ", second)},
		{name: "indented", content: strings.ReplaceAll(saved, "\n", "\n  "), where: "objects[1]: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			writeState(t, d, tt.content)
			if _, err := d.Load(scheme); err != nil {
				t.Fatal(err)
			}
			err := d.ObjectError(1, errors.New("refused"))
			requireErrorContains(t, err, "read state .lscli/state.json: "+tt.where+"refused ("+resetHint+")")
		})
	}
}
