package simcluster

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/state"
)

// populate applies a CRD, a custom resource, a Namespace, a Service and a
// Deployment whose readiness a rule delays by a minute.
func populate(f *fixture) {
	f.create(crdManifest, widgetManifest, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"app"}}`,
		`{"apiVersion":"v1","kind":"Service","metadata":{"generateName":"svc-","namespace":"app"},"spec":{"ports":[{"port":80}]}}`,
		deploymentManifest)
}

var delayDeployments = RuleConfig{Match: MatchConfig{Kind: "Deployment"}, Duration: "1m"}

func TestSaveRestore(t *testing.T) {
	f := newFixture(t, delayDeployments)
	populate(f)
	saved, err := f.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 9 { // the five and the four system namespaces
		t.Fatalf("saved %d objects, want 9", len(saved))
	}
	data, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}

	g := newRestored(t, f, data)
	if keys := g.clusters.Keys(); !reflect.DeepEqual(keys, []string{"example/cluster"}) {
		t.Errorf("Keys() = %v", keys)
	}
	if next, ok := g.clusters.NextChange(g.target); !ok || !next.Equal(epoch.Add(time.Minute)) {
		t.Errorf("NextChange before the cluster is opened = %v, %v; want %v", next, ok, epoch.Add(time.Minute))
	}
	again, err := g.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	againData, _ := json.Marshal(again)
	if string(againData) != string(data) {
		t.Error("saving clusters that were never opened changed them")
	}
	g.c = g.client()
	g.get("example.com/v1", "Widget", "default", "w") // the CRD's kind is served again
	if s := kstatusOf(t, g.get("apps/v1", "Deployment", "default", "web")); s != status.InProgressStatus {
		t.Errorf("restored Deployment: kstatus = %s, want InProgress", s)
	}
	g.clock.Step(time.Minute)
	if s := kstatusOf(t, g.get("apps/v1", "Deployment", "default", "web")); s != status.CurrentStatus {
		t.Errorf("restored Deployment after its delay: kstatus = %s, want Current", s)
	}
}

// newRestored returns a fixture with f's rules and clock whose clusters
// are restored from data, the JSON of saved objects (as in the state file).
// restored returns a fixture of clusters restored from what f's clusters
// save, through JSON as a state file keeps them (without a client: the
// caller sets c, which settles what is due).
func (f *fixture) restored() *fixture {
	f.t.Helper()
	saved, err := f.clusters.Save()
	if err != nil {
		f.t.Fatal(err)
	}
	data, err := json.Marshal(saved)
	if err != nil {
		f.t.Fatal(err)
	}
	return newRestored(f.t, f, data)
}

func newRestored(t *testing.T, f *fixture, data []byte) *fixture {
	t.Helper()
	var saved []state.ClusterObject
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	g := &fixture{t: t, clock: &testClock{now: f.clock.now}, target: f.target}
	g.clusters = New(Options{Now: g.clock.Now, IDs: ids.NewSource(3), Rules: f.clusters.opts.Rules})
	g.clusters.Restore(saved)
	return g
}

func TestSaveIsDeterministic(t *testing.T) {
	run := func() []byte {
		f := newFixture(t, delayDeployments)
		populate(f)
		f.clock.Step(time.Second)
		_ = f.c.Delete(context.Background(), obj(t, widgetManifest))
		saved, err := f.clusters.Save()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(saved)
		return data
	}
	if a, b := run(), run(); string(a) != string(b) {
		t.Errorf("two identical runs saved different clusters:\n%s\n%s", a, b)
	}
}
