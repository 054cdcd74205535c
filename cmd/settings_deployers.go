package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/pflag"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/simcluster"
)

// fakeSection is the config file's fake: key.
type fakeSection struct {
	Rules []json.RawMessage `json:"rules"`
}

// clusterSection is the config file's simulatedCluster: key.
type clusterSection struct {
	KubernetesVersion string            `json:"kubernetesVersion"`
	Rules             []json.RawMessage `json:"rules"`
	Seeds             []json.RawMessage `json:"seeds"`
}

// parseDeployers reads the deployer settings: modes from the config file's
// deployers map and the repeated --deployer flags (or LSCLI_DEPLOYER,
// comma-separated), rules from the config file, target modes from --targets
// (or LSCLI_TARGETS), else the config file's targets. The flags and their
// variables count only on the commands that run.
func (s *settings) parseDeployers(src source, flags *pflag.FlagSet) error {
	cfg := s.config
	if cfg == nil {
		cfg = &configFile{}
	}
	s.Deployers = map[string]string{}
	for typ, mode := range cfg.Deployers {
		s.Deployers[typ] = mode
	}
	if src.has("deployer") {
		if err := s.parseModeFlags(src, flags); err != nil {
			return err
		}
	}
	if err := s.checkModes(); err != nil {
		return err
	}
	if err := s.parseRules(cfg); err != nil {
		return err
	}
	return s.parseTargets(src, cfg.path, cfg.Targets)
}

// parseModeFlags adds the --deployer TYPE=MODE flags (or LSCLI_DEPLOYER).
func (s *settings) parseModeFlags(src source, flags *pflag.FlagSet) error {
	var specs []string
	if f := flags.Lookup("deployer"); f != nil && f.Changed {
		specs, _ = flags.GetStringArray("deployer")
	} else if env := src.getenv("LSCLI_DEPLOYER"); env != "" {
		specs = strings.Split(env, ",")
	}
	for _, spec := range specs {
		typ, mode, ok := strings.Cut(spec, "=")
		if !ok || typ == "" {
			return invalidf("invalid --deployer %q: want TYPE=MODE, e.g. landscaper.gardener.cloud/helm=none", spec)
		}
		s.Deployers[typ] = mode
	}
	return nil
}

// deployerModes are the allowed values of --deployer TYPE=MODE.
var deployerModes = []string{string(deployers.ModeFake), string(deployers.ModeReal), string(deployers.ModeNone)}

// checkModes validates the modes and that each type set to real has a real
// deployer.
func (s *settings) checkModes() error {
	s.deployer.Modes = map[lsv1alpha1.DeployItemType]deployers.Mode{}
	registry := action.RealDeployers(nil, nil, nil)
	for typ, mode := range s.Deployers {
		if !contains(deployerModes, mode) {
			return invalidf("invalid deployer mode %q for type %s (allowed: %s)", mode, typ, strings.Join(deployerModes, ", "))
		}
		t := lsv1alpha1.DeployItemType(typ)
		if mode == string(deployers.ModeReal) {
			if err := registry.Check(t); err != nil {
				return invalidf("invalid deployer mode real for type %s: %v", typ, err)
			}
		}
		s.deployer.Modes[t] = deployers.Mode(mode)
	}
	return nil
}

// parseRules compiles the rules of the fake and simulatedCluster sections.
func (s *settings) parseRules(cfg *configFile) error {
	path := cfg.path
	var fake fakeSection
	if err := decodeStrict(cfg.Fake, &fake); err != nil {
		return invalidf("%s: fake: %s", path, jsonMessage(err))
	}
	ruleCfgs := make([]deployers.RuleConfig, len(fake.Rules))
	for i, raw := range fake.Rules {
		if err := decodeStrict(raw, &ruleCfgs[i]); err != nil {
			return invalidf("%s: fake.rules[%d]: %s", path, i, jsonMessage(err))
		}
	}
	var err error
	if s.deployer.Rules, err = deployers.CompileRules(ruleCfgs); err != nil {
		return invalidf("%s: fake.%v", path, err)
	}
	var cluster clusterSection
	if err := decodeStrict(cfg.SimulatedCluster, &cluster); err != nil {
		return invalidf("%s: simulatedCluster: %s", path, jsonMessage(err))
	}
	clusterCfgs := make([]simcluster.RuleConfig, len(cluster.Rules))
	for i, raw := range cluster.Rules {
		if err := decodeStrict(raw, &clusterCfgs[i]); err != nil {
			return invalidf("%s: simulatedCluster.rules[%d]: %s", path, i, jsonMessage(err))
		}
	}
	if s.deployer.ClusterRules, err = simcluster.CompileRules(clusterCfgs); err != nil {
		return invalidf("%s: simulatedCluster.%v", path, err)
	}
	if err := simcluster.CheckVersion(cluster.KubernetesVersion); err != nil {
		return invalidf("%s: simulatedCluster.kubernetesVersion: %v", path, err)
	}
	s.deployer.KubeVersion = cluster.KubernetesVersion
	s.deployer.ClusterSeeds, s.deployer.SeedFiles, err = parseSeeds(path, cluster.KubernetesVersion, cluster.Seeds)
	return err
}

// targetModes are the allowed values of --targets and of targets entries.
var targetModes = []string{string(deployers.TargetSimulated), string(deployers.TargetReal)}

// parseTargets reads --targets (or LSCLI_TARGETS), which applies to every
// Target, else the config file's targets: a mode for every Target, or a map
// from Target ("namespace/name", or name) to mode.
func (s *settings) parseTargets(src source, path string, raw json.RawMessage) error {
	noConfig := source{flags: src.flags, getenv: src.getenv}
	if v, found := noConfig.get("targets", ""); found && src.has("targets") {
		if !contains(targetModes, v) {
			return invalidf("invalid --targets %q (allowed: %s)", v, strings.Join(targetModes, ", "))
		}
		s.deployer.Targets = deployers.TargetModes{Default: deployers.TargetMode(v)}
		return nil
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var all string
	if json.Unmarshal(raw, &all) == nil {
		raw, _ = json.Marshal(map[string]string{"*": all})
	}
	var byTarget map[string]string
	if err := json.Unmarshal(raw, &byTarget); err != nil {
		return invalidf("%s: targets: want %s, or a map from Target to one of them", path, strings.Join(targetModes, " or "))
	}
	s.deployer.Targets.Targets = map[string]deployers.TargetMode{}
	for name, mode := range byTarget {
		if !contains(targetModes, mode) {
			return invalidf("%s: targets: invalid mode %q for %s (allowed: %s)", path, mode, name, strings.Join(targetModes, ", "))
		}
		if name == "*" {
			s.deployer.Targets.Default = deployers.TargetMode(mode)
			continue
		}
		s.deployer.Targets.Targets[name] = deployers.TargetMode(mode)
	}
	return nil
}

// decodeStrict decodes a JSON value, rejecting unknown fields. Empty or
// null data leaves v as it is.
func decodeStrict(data json.RawMessage, v any) error {
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// jsonMessage words a decoding error for users: no "json: " prefix, and a
// type mismatch as "FIELD: wrong type (KIND)".
func jsonMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s: wrong type (%s)", te.Field, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
