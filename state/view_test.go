package state

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// savedInStoreOrder saves snap with its namespaced objects, and the
// cluster-scoped ones given, in the API server's order, as the engine's
// snapshots have them, and returns what Load gives back.
func savedInStoreOrder(t *testing.T, d *Dir, snap *Snapshot, clusterScoped ...fakecluster.Object) *Snapshot {
	t.Helper()
	c := fakecluster.New(fakecluster.Options{Scheme: testScheme()})
	snap.Objects = slices.DeleteFunc(snap.Objects, func(o fakecluster.Object) bool { return o.GetNamespace() == "" })
	snap.Objects = append(snap.Objects, clusterScoped...)
	if err := c.Restore(snap.Objects); err != nil {
		t.Fatal(err)
	}
	snap.Objects = c.Objects()
	if err := d.Save(snap, testScheme()); err != nil {
		t.Fatal(err)
	}
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

func openView(t *testing.T, d *Dir) *View {
	t.Helper()
	v, ok, err := d.OpenView(testScheme(), true)
	if err != nil || !ok {
		t.Fatalf("OpenView: ok %v, err %v", ok, err)
	}
	return v
}

func TestViewGivesWhatLoadGives(t *testing.T) {
	d := tempDir(t)
	snap := bigSnapshot(5)
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default", UID: "ns-uid", ResourceVersion: "7"}}
	want := savedInStoreOrder(t, d, snap, ns)
	v := openView(t, d)

	objs, err := v.AllObjects()
	if err != nil {
		t.Fatal(err)
	}
	events, err := v.Events()
	if err != nil {
		t.Fatal(err)
	}
	requireEqual(t, want, &Snapshot{Seed: want.Seed, Rand: want.Rand, Clock: want.Clock, Timers: want.Timers,
		Events: events, Objects: objs})

	heads := v.Headers()
	if len(heads) != len(want.Objects) {
		t.Fatalf("%d headers for %d objects", len(heads), len(want.Objects))
	}
	for i, h := range heads {
		o := want.Objects[i]
		gvk := o.GetObjectKind().GroupVersionKind()
		if h.Kind != gvk.Kind || h.APIVersion != gvk.GroupVersion().String() || h.Namespace != o.GetNamespace() ||
			h.Name != o.GetName() || h.UID != o.GetUID() || len(h.Owners) != len(o.GetOwnerReferences()) {
			t.Errorf("header %d = %+v, object %s %s/%s uid %s owners %v", i, h, gvk.Kind, o.GetNamespace(), o.GetName(), o.GetUID(), o.GetOwnerReferences())
		}
		for j, ref := range o.GetOwnerReferences() {
			if j < len(h.Owners) && h.Owners[j] != ref.UID {
				t.Errorf("header %d owner %d = %s, want %s", i, j, h.Owners[j], ref.UID)
			}
		}
	}
}

func TestViewDecodesOnlyTheObjectsAsked(t *testing.T) {
	d := tempDir(t)
	want := savedInStoreOrder(t, d, bigSnapshot(3))
	v := openView(t, d)
	got, err := v.Objects([]int{4, 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || toJSON(t, got[0]) != toJSON(t, want.Objects[4]) || toJSON(t, got[1]) != toJSON(t, want.Objects[1]) {
		t.Fatalf("Objects([4 1]) = %s", toJSON(t, got))
	}
	// A line that is never asked for is never decoded.
	text := readState(t, d)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.Contains(l, `"name":"inst-2"`) && strings.HasPrefix(l, `{"kind":"Installation"`) {
			lines[i] = strings.Replace(l, `"spec":{`, `"spec":{"blueprint":42,`, 1)
		}
	}
	writeState(t, d, strings.Join(lines, "\n"))
	v = openView(t, d)
	if _, err := v.Objects([]int{0}); err != nil {
		t.Fatalf("an unrelated object's bad spec: %v", err)
	}
	_, err = v.AllObjects()
	requireErrorContains(t, err, "read state .lscli/state.json: line ", "lscli reset")
}

func TestViewLeavesOtherFilesToLoad(t *testing.T) {
	for name, edit := range map[string]func(string) string{
		"reformatted": func(s string) string { return strings.ReplaceAll(s, "\n", "\n ") },
		"objects out of order": func(s string) string {
			lines := strings.Split(s, "\n")
			i := len(lines) - 3
			a, b := strings.TrimSuffix(lines[i-1], ","), strings.TrimSuffix(lines[i], ",")
			lines[i-1], lines[i] = b+",", a+","
			return strings.Join(lines, "\n")
		},
		"no uid":               func(s string) string { return strings.Replace(s, `"uid":"`, `"uidx":"`, 1) },
		"no resourceVersion":   func(s string) string { return strings.Replace(s, `"resourceVersion":"`, `"rv":"`, 1) },
		"another version":      func(s string) string { return strings.Replace(s, `{"version":1,`, `{"version":9,`, 1) },
		"object not a mapping": func(s string) string { return strings.Replace(s, "\n{\"kind\":", "\n{\"kind\":1,\"x\":", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			d := tempDir(t)
			savedInStoreOrder(t, d, bigSnapshot(2))
			writeState(t, d, edit(readState(t, d)))
			v, ok, err := d.OpenView(testScheme(), true)
			if err != nil || ok || v != nil {
				t.Fatalf("OpenView = %v, %v, %v; want nil, false, nil", v, ok, err)
			}
		})
	}
}

func TestViewWithoutState(t *testing.T) {
	d := tempDir(t)
	_, ok, err := d.OpenView(testScheme(), true)
	if ok || !errors.Is(err, ErrNoState) {
		t.Fatalf("OpenView = %v, %v; want ErrNoState", ok, err)
	}
}

// TestDecodeEventsAsDecodeEvent: the token reader gives what decodeEvent
// gives, for the lines Save writes and for lines only a hand could write.
func TestDecodeEventsAsDecodeEvent(t *testing.T) {
	texts := []string{
		`{"time":"2025-01-01T00:00:00Z","kind":"Installation","namespace":"default","name":"a","type":"Created"}`,
		`{"time":"2025-01-01T00:00:01.5Z","kind":"DeployItem","namespace":"default","name":"a-x","type":"PhaseChanged","phase":"Init","jobID":"j-1"}`,
		`{"time":"2025-01-01T01:00:00+01:00","kind":"Installation","namespace":"default","name":"a","type":"JobFinished","message":"line one\nline two \"q\" \u00fc"}`,
		`{"time":"2025-01-01T00:00:00Z","Kind":"Installation","name":"b","type":"Created"}`,
		`{"time":"2025-01-01T00:00:00Z","kind":"Installation","name":"b","type":"Created","extra":{"x":[1,2]}}`,
		`{"time":null,"kind":"Installation","name":"c","type":"Created"}`,
		`{"kind":"Installation","kind":"Execution","name":"d","type":"Created"}`,
		`{"time":"2025-01-01T00:00:00Z","kind":"日本","namespace":"","name":"e","type":"Deleted","message":""}`,
		`{"kind":"2025-01-01T00:00:00Z","time":"2025-01-01T00:00:02Z","name":"f","type":"Created"}`,
		`{"time":"2025-01-01T00:00:02Z","kind":"Installation","namespace":"default","name":"f","type":"Created"}`,
		"{\"time\":\"2025-01-01T00:00:02Z\",\"kind\":\"Installation\",\"name\":\"bad-\xff-utf8\",\"type\":\"Created\"}",
		`{ "time": "2025-01-01T00:00:03Z", "kind": "Installation", "name": "spaced", "type": "Created" }`,
	}
	lines := make([]line, 0, 600)
	for i := range 600 { // more than one chunk, so that every worker's strings are shared
		lines = append(lines, line{no: i + 1, text: []byte(texts[i%len(texts)])})
	}
	got, err := decodeEvents(lines)
	if err != nil {
		t.Fatal(err)
	}
	want, err := decodeLines(lines, decodeEvent)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !want[i].Time.Equal(got[i].Time) || want[i].Time.Location().String() != got[i].Time.Location().String() {
			t.Errorf("line %d: time %v, want %v", i+1, got[i].Time, want[i].Time)
		}
		got[i].Time, want[i].Time = time.Time{}, time.Time{}
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	_, err = decodeEvents([]line{{no: 7, text: []byte(`{"time":"yesterday"}`)}})
	requireErrorContains(t, err, "line 7: event: ")
	_, err = decodeEvents([]line{{no: 8, text: []byte("{\"time\":\"2025-01-01T00:00:00Z\",\"name\":\"tab\there\"}")}})
	requireErrorContains(t, err, "line 8: event: ")
	_, err = decodeEvents([]line{{no: 9, text: []byte(`{"time":"2025-01-01T00:00:00Z","name":"x"}}`)}})
	requireErrorContains(t, err, "line 9: event: ")
}

// TestViewOfEventsReadsNoObjects: a View opened without objects reads the
// file only up to the objects, so their content does not matter, but a
// file cut short is left to Load.
func TestViewOfEventsReadsNoObjects(t *testing.T) {
	d := tempDir(t)
	want := savedInStoreOrder(t, d, bigSnapshot(3))
	text := readState(t, d)
	at := strings.Index(text, "\n\"objects\":[\n")
	writeState(t, d, text[:at]+"\n\"objects\":[\nnot JSON at all\n]}\n")
	v, ok, err := d.OpenView(testScheme(), false)
	if err != nil || !ok {
		t.Fatalf("OpenView = %v, %v", ok, err)
	}
	events, err := v.Events()
	if err != nil {
		t.Fatal(err)
	}
	if toJSON(t, events) != toJSON(t, want.Events) || v.Headers() != nil {
		t.Fatalf("events %s, headers %v", toJSON(t, events), v.Headers())
	}

	// A file cut short is read whole, so that Load reports it.
	writeState(t, d, text[:len(text)-10])
	if v, ok, err := d.OpenView(testScheme(), false); ok || err != nil {
		t.Fatalf("OpenView of a file cut short = %v, %v, %v; want a full load", v, ok, err)
	}
}

// TestObjectTimesAsMetav1: objects' times decode as metav1.Time's own
// UnmarshalJSON decodes them.
func TestObjectTimesAsMetav1(t *testing.T) {
	for _, ts := range []string{`"2025-01-01T00:00:00Z"`, `"2025-01-01T01:00:00+01:00"`, `null`, `"2025-01-01T00:00:00.25Z"`} {
		data := `{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1","metadata":{"name":"a","namespace":"n","creationTimestamp":` + ts + `,"deletionTimestamp":` + ts + `}}`
		got, err := decodeObject(testScheme(), []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		var want lsv1alpha1.Installation
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatal(err)
		}
		g := got.(*lsv1alpha1.Installation)
		if !equal.DeepEqual(g.CreationTimestamp, want.CreationTimestamp) || !equal.DeepEqual(g.DeletionTimestamp, want.DeletionTimestamp) ||
			g.CreationTimestamp.Location() != want.CreationTimestamp.Location() {
			t.Errorf("%s: %v %v, want %v %v", ts, g.CreationTimestamp, g.DeletionTimestamp, want.CreationTimestamp, want.DeletionTimestamp)
		}
	}
	_, err := decodeObject(testScheme(), []byte(`{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1","metadata":{"name":"a","creationTimestamp":"noon"}}`))
	requireErrorContains(t, err, "Installation", "noon")
}
