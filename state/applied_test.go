package state

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// withApplied returns snap with applied configurations of two objects.
func withApplied(snap *Snapshot) *Snapshot {
	snap.Applied = []AppliedConfig{
		{Kind: "Installation", Namespace: "default", Name: "demo", UID: "uid-1",
			Config: json.RawMessage(`{"metadata":{"labels":{"team":"a"}},"spec":{"imports":{"data":[{"name":"x","dataRef":"x"}]}}}`)},
		{Kind: "Secret", Namespace: "default", Name: "creds", UID: "uid-2", Config: json.RawMessage(`{"data":{"k":"dg=="},"metadata":{}}`)},
	}
	return snap
}

// TestSaveLoadApplied: the applied section follows the objects, and the
// clusters section when there is one, and loads back as it was saved, from
// Save's layout and from any other JSON layout.
func TestSaveLoadApplied(t *testing.T) {
	scheme := testScheme()
	for name, snap := range map[string]func() *Snapshot{
		"without clusters": func() *Snapshot { return withApplied(sampleSnapshot()) },
		"with clusters":    func() *Snapshot { return withApplied(withClusters()) },
	} {
		t.Run(name, func(t *testing.T) {
			d := tempDir(t)
			want := snap()
			if err := d.Save(want, scheme); err != nil {
				t.Fatal(err)
			}
			saved := readState(t, d)
			if !strings.Contains(saved, "],\n\"applied\":[\n{\"kind\":\"Installation\",\"namespace\":\"default\",\"name\":\"demo\",\"uid\":\"uid-1\",\"config\":{") ||
				!strings.HasSuffix(saved, "}}\n]}\n") {
				t.Fatalf("unexpected layout:\n%s", saved)
			}
			if len(want.Clusters) > 0 && strings.Index(saved, `"clusters":[`) > strings.Index(saved, `"applied":[`) {
				t.Fatalf("the clusters section is not before the applied one:\n%s", saved)
			}
			for layout, content := range map[string]string{"as saved": saved, "indented": indent(t, saved)} {
				writeState(t, d, content)
				got, err := d.Load(scheme)
				if err != nil {
					t.Fatalf("%s: %v", layout, err)
				}
				if !reflect.DeepEqual(compacted(got.Applied), compacted(want.Applied)) || len(got.Clusters) != len(want.Clusters) {
					t.Fatalf("%s: applied %+v, want %+v", layout, got.Applied, want.Applied)
				}
				if err := d.Save(got, scheme); err != nil {
					t.Fatal(err)
				}
				if resaved := readState(t, d); resaved != saved {
					t.Fatalf("%s: resaved\n%s\nwant\n%s", layout, resaved, saved)
				}
			}
			inOrder := savedInStoreOrder(t, d, snap())
			inOrder.Applied = want.Applied
			if err := d.Save(inOrder, scheme); err != nil {
				t.Fatal(err)
			}
			v, ok, err := d.OpenView(scheme, true)
			if err != nil || !ok {
				t.Fatalf("OpenView: ok %v, err %v", ok, err)
			}
			if objs, err := v.AllObjects(); err != nil || len(objs) != len(inOrder.Objects) {
				t.Fatalf("View: %d objects, %v", len(objs), err)
			}
		})
	}
}

// TestStateWithoutApplied: a state saved before lscli kept applied
// configurations (none, no section) loads with none, and one without any
// is saved without the section.
func TestStateWithoutApplied(t *testing.T) {
	d := tempDir(t)
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	if saved := readState(t, d); strings.Contains(saved, `"applied"`) {
		t.Fatalf("a state without applied configurations has the section:\n%s", saved)
	}
	got, err := d.Load(testScheme())
	if err != nil || got.Applied != nil {
		t.Fatalf("Load: applied %v, err %v", got.Applied, err)
	}
}

// TestBadApplied: an applied configuration that names no object or whose
// config is no JSON object is an error naming its line, never dropped.
func TestBadApplied(t *testing.T) {
	d := tempDir(t)
	if err := d.Save(withApplied(sampleSnapshot()), testScheme()); err != nil {
		t.Fatal(err)
	}
	saved := readState(t, d)
	for name, tt := range map[string]struct{ old, new, want string }{
		"no uid":       {`"uid":"uid-2",`, ``, `applied configuration: kind, name and uid are required`},
		"config array": {`"config":{"data":{"k":"dg=="},"metadata":{}}`, `"config":[]`, `applied configuration of Secret default/creds: config is not a JSON object`},
		"not json":     {`"uid":"uid-2",`, `"uid":uid-2,`, `applied configuration`},
		"twice":        {`"kind":"Secret","namespace":"default","name":"creds"`, `"kind":"Installation","namespace":"default","name":"demo"`, `applied: applied configuration of Installation default/demo twice`},
	} {
		t.Run(name, func(t *testing.T) {
			bad := strings.Replace(saved, tt.old, tt.new, 1)
			if bad == saved {
				t.Fatal("nothing replaced")
			}
			for layout, content := range map[string]string{"as saved": bad, "indented": indentOrSame(bad)} {
				writeState(t, d, content)
				_, err := d.Load(testScheme())
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: error %v, want one with %q", layout, err, tt.want)
				}
			}
		})
	}
}

func indent(t *testing.T, s string) string {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(s), "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// indentOrSame indents s when it is valid JSON.
func indentOrSame(s string) string {
	var out bytes.Buffer
	if json.Indent(&out, []byte(s), "", "  ") != nil {
		return s
	}
	return out.String()
}

// compacted returns a with every config compacted, as loaded.
func compacted(a []AppliedConfig) []AppliedConfig {
	out := make([]AppliedConfig, len(a))
	for i, c := range a {
		var b bytes.Buffer
		_ = json.Compact(&b, c.Config)
		c.Config = b.Bytes()
		out[i] = c
	}
	return out
}
