package simcluster

import (
	"strings"
	"testing"
)

func TestCompileRules(t *testing.T) {
	tests := []struct {
		name    string
		rules   []RuleConfig
		wantErr string
	}{
		{name: "empty", rules: nil},
		{name: "full", rules: []RuleConfig{{Match: MatchConfig{Target: "*/prod", APIVersion: "apps/*", Kind: "Deployment",
			Namespace: "web", Name: "api-?", Labels: "tier in (web)"}, Duration: "90s", Fail: "boom"}}},
		{name: "bad duration", rules: []RuleConfig{{}, {Duration: "soon"}}, wantErr: `rules[1]: duration: invalid duration "soon"`},
		{name: "negative duration", rules: []RuleConfig{{Duration: "-1s"}}, wantErr: `rules[0]: duration`},
		{name: "bad selector", rules: []RuleConfig{{Match: MatchConfig{Labels: "a in (b"}}}, wantErr: "rules[0]: match.labels"},
		{name: "hang with fail", rules: []RuleConfig{{Hang: true, Fail: "x"}}, wantErr: "rules[0]: hang cannot be combined"},
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

func TestRuleMatching(t *testing.T) {
	rules, err := CompileRules([]RuleConfig{
		{Match: MatchConfig{Target: "prod"}, Fail: "first"},
		{Match: MatchConfig{Kind: "Deployment", Labels: "app=web"}, Fail: "second"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		info objectInfo
		want string
	}{
		{name: "target by name", info: objectInfo{target: "ns/prod"}, want: "first"},
		{name: "kind and labels", info: objectInfo{target: "ns/dev", gvk: deploymentGVK, labels: map[string]string{"app": "web"}}, want: "second"},
		{name: "labels do not match", info: objectInfo{target: "ns/dev", gvk: deploymentGVK}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if r := rules.find(tt.info); r != nil {
				got = r.Fail
			}
			if got != tt.want {
				t.Errorf("matched rule %q, want %q", got, tt.want)
			}
		})
	}
}
