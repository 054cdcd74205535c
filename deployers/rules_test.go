package deployers

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

func TestCompileRules(t *testing.T) {
	tests := []struct {
		name    string
		rules   []RuleConfig
		wantErr string
	}{
		{name: "none"},
		{name: "everything", rules: []RuleConfig{{Match: MatchConfig{Type: "example.com/*", Name: "app-?", Namespace: "prod", Labels: "tier=web"},
			Reconcile: StepConfig{Duration: "3m"}, Delete: StepConfig{Duration: "1m", Fail: "busy"}, Exports: []byte(`{"a":1}`)}}},
		{name: "pickup never for mock items", rules: []RuleConfig{{Match: MatchConfig{Type: string(MockType)}, Pickup: "never"}}},
		{name: "bad pickup", rules: []RuleConfig{{}, {Pickup: "later"}}, wantErr: `rules[1]: pickup: invalid value "later" (allowed: never)`},
		{name: "bad duration", rules: []RuleConfig{{Reconcile: StepConfig{Duration: "3 minutes"}}},
			wantErr: `rules[0]: reconcile: duration: invalid duration "3 minutes"`},
		{name: "negative delete duration", rules: []RuleConfig{{Delete: StepConfig{Duration: "-1m"}}}, wantErr: "rules[0]: delete: duration"},
		{name: "hang and fail", rules: []RuleConfig{{Reconcile: StepConfig{Hang: true, Fail: "x"}}},
			wantErr: "rules[0]: reconcile: hang cannot be combined with fail or duration"},
		{name: "exports of a failing item", rules: []RuleConfig{{Reconcile: StepConfig{Fail: "x"}, Exports: []byte(`1`)}},
			wantErr: "rules[0]: exports: an item whose reconcile fails or hangs exports nothing"},
		{name: "bad selector", rules: []RuleConfig{{Match: MatchConfig{Labels: "a in (b"}}}, wantErr: "rules[0]: match.labels: invalid label selector"},
		{name: "outcome for mock items", rules: []RuleConfig{{Match: MatchConfig{Type: string(MockType)}, Reconcile: StepConfig{Fail: "x"}}},
			wantErr: "rules[0]: match.type: landscaper.gardener.cloud/mock items get their outcome from their config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompileRules(tt.rules)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestRulesFind(t *testing.T) {
	rules, err := CompileRules([]RuleConfig{
		{Match: MatchConfig{Type: "landscaper.gardener.cloud/*", Name: "db"}, Reconcile: StepConfig{Fail: "by type and template name"}},
		{Match: MatchConfig{Name: "demo-app-*"}, Reconcile: StepConfig{Fail: "by item name"}},
		{Match: MatchConfig{Labels: "tier=cache", Namespace: "prod"}, Reconcile: StepConfig{Fail: "by labels and namespace"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	di := func(typ, name, template, ns string, labels map[string]string) *lsv1alpha1.DeployItem {
		d := item(lsv1alpha1.DeployItemType(typ))
		d.Name, d.Namespace = name, ns
		d.Labels = map[string]string{lsv1alpha1.ExecutionManagedNameLabel: template}
		for k, v := range labels {
			d.Labels[k] = v
		}
		return d
	}
	tests := []struct {
		name string
		item *lsv1alpha1.DeployItem
		want string
	}{
		{name: "type and template name", item: di("landscaper.gardener.cloud/helm", "demo-db-x1", "db", "dev", nil), want: "by type and template name"},
		{name: "type does not match", item: di("example.com/db", "demo-db-x1", "db", "dev", nil), want: ""},
		{name: "item name", item: di("example.com/app", "demo-app-6c29l", "app", "dev", nil), want: "by item name"},
		{name: "labels and namespace", item: di("example.com/c", "c-1", "c", "prod", map[string]string{"tier": "cache"}), want: "by labels and namespace"},
		{name: "labels but other namespace", item: di("example.com/c", "c-1", "c", "dev", map[string]string{"tier": "cache"}), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if r := rules.Find(tt.item); r != nil {
				got = r.Reconcile.Fail
			}
			if got != tt.want {
				t.Errorf("matched %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHonoursTimeout(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		rule Rule
		typ  lsv1alpha1.DeployItemType
		want bool
	}{
		{name: "helm by default", typ: HelmType, want: true},
		{name: "manifest by default", typ: ManifestType, want: true},
		{name: "other types not by default", typ: "example.com/app", want: false},
		{name: "rule says yes", rule: Rule{ProgressingTimeout: &yes}, typ: "example.com/app", want: true},
		{name: "rule says no", rule: Rule{ProgressingTimeout: &no}, typ: HelmType, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := honoursTimeout(&tt.rule, item(tt.typ)); got != tt.want {
				t.Errorf("honoursTimeout = %v, want %v", got, tt.want)
			}
		})
	}
}
