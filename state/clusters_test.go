package state

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// withClusters returns the sample snapshot with objects of two simulated
// clusters, one with a pending fake controller.
func withClusters() *Snapshot {
	snap := sampleSnapshot()
	due := epoch.Add(2 * time.Minute)
	snap.Clusters = []ClusterObject{
		{Cluster: "example/cluster", Object: json.RawMessage(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"<b>"}}`)},
		{Cluster: "example/cluster", Due: &due, Object: json.RawMessage(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default","generation":1}}`)},
		{Cluster: "prod/cluster", Object: json.RawMessage(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"app"}}`)},
	}
	return snap
}

func TestSaveLoadClusters(t *testing.T) {
	scheme := testScheme()
	layouts := []struct {
		name   string
		layout func([]byte) []byte
	}{
		{name: "as saved", layout: func(b []byte) []byte { return b }},
		{name: "indented", layout: func(b []byte) []byte {
			var out bytes.Buffer
			if err := json.Indent(&out, b, "", "  "); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}},
	}
	for _, tt := range layouts {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			snap := withClusters()
			if err := d.Save(snap, scheme); err != nil {
				t.Fatal(err)
			}
			saved := readState(t, d)
			if !strings.Contains(saved, "],\n\"clusters\":[\n{\"cluster\":\"example/cluster\",\"object\":") || !strings.HasSuffix(saved, "]}\n") {
				t.Fatalf("unexpected layout:\n%s", saved)
			}
			writeState(t, d, string(tt.layout([]byte(saved))))
			got, err := d.Load(scheme)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Save(got, scheme); err != nil {
				t.Fatal(err)
			}
			if resaved := readState(t, d); resaved != saved {
				t.Fatalf("want\n%s\ngot\n%s", saved, resaved)
			}
		})
	}
}

func TestSaveWithoutClustersKeepsThreeSections(t *testing.T) {
	d := tempDir(t)
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	if saved := readState(t, d); strings.Contains(saved, `"clusters"`) || !strings.HasSuffix(saved, "]}\n") {
		t.Errorf("a state without simulated clusters has a clusters section:\n%s", saved)
	}
}

// TestViewReadsStateWithClusters: a state file with the simulated clusters'
// section after the objects opens in a View, as one without it does (the
// first try at the objects' end ran into the clusters' end and stripped
// the commas of lines it did not keep; then every read of such a state
// took the slow way, and reconcile -o json failed reading it back).
func TestViewReadsStateWithClusters(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	snap := savedInStoreOrder(t, d, withClusters())
	snap.Clusters = withClusters().Clusters
	if err := d.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	v, ok, err := d.OpenView(scheme, true)
	if err != nil || !ok {
		t.Fatalf("OpenView: ok %v, err %v", ok, err)
	}
	objs, err := v.AllObjects()
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != len(snap.Objects) {
		t.Errorf("the View read %d objects, the state holds %d", len(objs), len(snap.Objects))
	}
}
