package action

import (
	"encoding/json"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers"
)

// TestFakeExports: the dry run takes a faked item's exports from the first
// fake rule that selects it, as a reconcile does, and none from a rule that
// fails it or keeps it from being picked up, nor for types a real deployer
// serves unless they are set to fake.
func TestFakeExports(t *testing.T) {
	rules, err := deployers.CompileRules([]deployers.RuleConfig{
		{Match: deployers.MatchConfig{Name: "broken"}, Reconcile: deployers.StepConfig{Fail: "boom"}},
		{Match: deployers.MatchConfig{Name: "away"}, Pickup: "never"},
		{Match: deployers.MatchConfig{Namespace: "other"}, Exports: json.RawMessage(`{"ns":"other"}`)},
		{Match: deployers.MatchConfig{Type: "*"}, Exports: json.RawMessage(`{"b":2}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	item := func(ns, name string, typ lsv1alpha1.DeployItemType) *lsv1alpha1.DeployItem {
		di := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			Labels: map[string]string{lsv1alpha1.ExecutionManagedNameLabel: name}}}
		di.Spec.Type = typ
		return di
	}
	const container = "landscaper.gardener.cloud/container"
	for _, tt := range []struct {
		modes map[lsv1alpha1.DeployItemType]deployers.Mode
		di    *lsv1alpha1.DeployItem
		want  string // JSON of the exports, "" for none
		from  string
	}{
		{di: item("default", "app", container), want: `{"b":2}`, from: "fake.rules[3]"},
		{di: item("other", "app", container), want: `{"ns":"other"}`, from: "fake.rules[2]"},
		{di: item("default", "broken", container)},
		{di: item("default", "away", container)},
		{di: item("default", "app", deployers.HelmType)},
		{di: item("default", "app", deployers.MockType), modes: map[lsv1alpha1.DeployItemType]deployers.Mode{deployers.MockType: deployers.ModeFake}},
		{di: item("default", "app", deployers.HelmType), modes: map[lsv1alpha1.DeployItemType]deployers.Mode{deployers.HelmType: deployers.ModeFake},
			want: `{"b":2}`, from: "fake.rules[3]"},
		{di: item("default", "app", container), modes: map[lsv1alpha1.DeployItemType]deployers.Mode{container: deployers.ModeNone}},
	} {
		v, from, ok := fakeExports(DeployerSettings{Modes: tt.modes, Rules: rules})(tt.di)
		got := ""
		if ok {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if got != tt.want || from != tt.from {
			t.Errorf("%s %s/%s (modes %v): got %s from %q, want %s from %q", tt.di.Spec.Type, tt.di.Namespace, tt.di.Name, tt.modes, got, from, tt.want, tt.from)
		}
	}
}
