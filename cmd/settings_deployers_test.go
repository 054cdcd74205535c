package cmd

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/deployers"
)

// parseWith loads the settings from a config file with content config (none
// when empty), the flags args and the environment env.
func parseWith(t *testing.T, config string, args []string, env map[string]string) (*settings, error) {
	t.Helper()
	cmd := &cobra.Command{Use: "test"}
	addGlobalFlags(cmd)
	addRunFlags(cmd)
	if config != "" {
		path := filepath.Join(t.TempDir(), "lscli.yaml")
		if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--config", path)
	}
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return loadSettings(cmd, func(k string) string { return env[k] }, nil)
}

func TestParseDeployerSettings(t *testing.T) {
	tests := []struct {
		name        string
		config      string
		args        []string
		env         map[string]string
		wantModes   map[lsv1alpha1.DeployItemType]deployers.Mode
		wantTargets deployers.TargetModes
		wantRules   int
		wantErr     string
	}{
		{name: "nothing", wantModes: map[lsv1alpha1.DeployItemType]deployers.Mode{}},
		{name: "config modes and rules", config: `
deployers:
  landscaper.gardener.cloud/mock: none
  example.com/App: fake
fake:
  rules:
  - match: {name: app}
    reconcile: {duration: 3m}
simulatedCluster:
  kubernetesVersion: v1.30.0
  rules:
  - match: {kind: Deployment}
    hang: true
`, wantModes: map[lsv1alpha1.DeployItemType]deployers.Mode{"landscaper.gardener.cloud/mock": "none", "example.com/App": "fake"},
			wantRules: 1},
		{name: "flags override the config file", config: "deployers: {example.com/app: none}",
			args:      []string{"--deployer", "example.com/app=fake"},
			wantModes: map[lsv1alpha1.DeployItemType]deployers.Mode{"example.com/app": "fake"}},
		{name: "environment", env: map[string]string{"LSCLI_DEPLOYER": "a=none,b=fake", "LSCLI_TARGETS": "real"},
			wantModes:   map[lsv1alpha1.DeployItemType]deployers.Mode{"a": "none", "b": "fake"},
			wantTargets: deployers.TargetModes{Default: deployers.TargetReal}},
		{name: "targets for all", config: "targets: real", wantModes: map[lsv1alpha1.DeployItemType]deployers.Mode{},
			wantTargets: deployers.TargetModes{Default: deployers.TargetReal, Targets: map[string]deployers.TargetMode{}}},
		{name: "targets per Target", config: "targets: {prod/cluster: real, '*': simulated}",
			wantModes:   map[lsv1alpha1.DeployItemType]deployers.Mode{},
			wantTargets: deployers.TargetModes{Default: deployers.TargetSimulated, Targets: map[string]deployers.TargetMode{"prod/cluster": deployers.TargetReal}}},
		{name: "--targets overrides the config for every Target", config: "targets: {prod/cluster: real}", args: []string{"--targets", "simulated"},
			wantModes: map[lsv1alpha1.DeployItemType]deployers.Mode{}, wantTargets: deployers.TargetModes{Default: deployers.TargetSimulated}},
		{name: "bad target mode", config: "targets: {prod/cluster: cloud}", wantErr: `targets: invalid mode "cloud" for prod/cluster (allowed: simulated, real)`},
		{name: "bad targets", config: "targets: [real]", wantErr: "targets: want simulated or real, or a map from Target to one of them"},
		{name: "bad --deployer", args: []string{"--deployer", "helm"}, wantErr: `invalid --deployer "helm": want TYPE=MODE`},
		{name: "fake is not a list", config: "fake: {rules: {a: 1}}", wantErr: "fake: rules: wrong type (object)"},
		{name: "unknown key in fake", config: "fake: {rulez: []}", wantErr: `fake: unknown field "rulez"`},
		{name: "bad rule", config: "fake: {rules: [{pickup: soon}]}", wantErr: `fake.rules[0]: pickup: invalid value "soon"`},
		{name: "bad cluster rule", config: "simulatedCluster: {rules: [{duration: x}]}", wantErr: `simulatedCluster.rules[0]: duration: invalid duration "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parseWith(t, tt.config, tt.args, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != action.ExitInvalid {
					t.Fatalf("error = %v (exit %d), want exit 2 with %q", err, exitCode(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := s.deployer
			if !reflect.DeepEqual(d.Modes, tt.wantModes) {
				t.Errorf("modes = %v, want %v", d.Modes, tt.wantModes)
			}
			if !reflect.DeepEqual(d.Targets, tt.wantTargets) {
				t.Errorf("targets = %+v, want %+v", d.Targets, tt.wantTargets)
			}
			if len(d.Rules) != tt.wantRules {
				t.Errorf("%d rules, want %d", len(d.Rules), tt.wantRules)
			}
		})
	}
}
