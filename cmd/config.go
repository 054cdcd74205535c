package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/safefs"
	"github.com/lscli/lscli/internal/suggest"
)

// configFile is the config file, lscli.yaml. It is the one place that lists
// the keys lscli reads: the file is decoded strictly into it, so an unknown
// or misspelled key is invalid input (exit 2) that names the key and the
// file. Adding a key is adding a field here, with its json tag as the key;
// the code that uses it reads the field (a raw section is decoded strictly
// by its user, so that errors name their place, e.g. "fake.rules[2]").
//
// Keys match case-insensitively, as the flags' keys always have.
type configFile struct {
	// Settings that flags also set; flags and LSCLI_* variables override
	// them. Each is found by its key (see setting).
	Namespace     scalar `json:"namespace"`
	Output        scalar `json:"output"`
	State         scalar `json:"state"`
	Color         scalar `json:"color"`
	Seed          scalar `json:"seed"`
	Until         scalar `json:"until"`
	MaxSteps      scalar `json:"max-steps"`
	StartTime     scalar `json:"start-time"`
	PickupTimeout scalar `json:"pickup-timeout"`
	LockTimeout   scalar `json:"lock-timeout"`

	// Deployers maps deploy item types to fake, real or none.
	Deployers map[string]string `json:"deployers"`
	// Targets is a mode for every Target, or a map from Target to mode.
	Targets json.RawMessage `json:"targets"`
	// Fake holds the fake deployer's rules (settings_deployers.go).
	Fake json.RawMessage `json:"fake"`
	// SimulatedCluster holds the simulated clusters' version and rules.
	SimulatedCluster json.RawMessage `json:"simulatedCluster"`
	// Blueprints maps blueprint references to local folders (blueprints.go).
	Blueprints json.RawMessage `json:"blueprints"`
	// Charts maps helm chart references to local charts (charts.go).
	Charts json.RawMessage `json:"charts"`
	// Components maps repositories and components to local folders and
	// files of component versions (components.go).
	Components json.RawMessage `json:"components"`
	// Artifacts maps resources' access references to local files.
	Artifacts json.RawMessage `json:"artifacts"`
	// LocalRegistryRoot is Landscaper's registry.local.rootPath, relative
	// to the file.
	LocalRegistryRoot scalar `json:"local-registry-root"`
	// Limits bound what a landscape may cost (settings_limits.go).
	Limits json.RawMessage `json:"limits"`
	// Gardener stands in for the garden cluster (gardener.go).
	Gardener json.RawMessage `json:"gardener"`

	// path is the file's path, as found or given.
	path string
}

// scalar is a config value that a flag also sets. YAML gives a string, a
// number or a boolean; lscli reads it as the text a flag would have.
type scalar struct {
	val string
	set bool
}

// UnmarshalJSON takes a string, number or boolean; null leaves it unset.
func (s *scalar) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		s.val = v
	case float64, bool:
		s.val = string(data) // the digits as written, even beyond float64
	default:
		return fmt.Errorf("want a string or a number, got %s", yamlKind(v))
	}
	s.set = true
	return nil
}

// setting returns the value of the scalar whose key is key, and whether the
// file sets it.
func (c *configFile) setting(key string) (string, bool) {
	s, _ := c.field(key).(scalar)
	return s.val, s.set
}

// section returns the raw section whose key is key; nil when it is not set.
func (c *configFile) section(key string) json.RawMessage {
	raw, _ := c.field(key).(json.RawMessage)
	return raw
}

// field returns the value of the field whose key is key, or nil.
func (c *configFile) field(key string) any {
	if c == nil {
		return nil
	}
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		if jsonKey(v.Type().Field(i)) == key {
			return v.Field(i).Interface()
		}
	}
	return nil
}

// jsonKey is the key of a field of configFile.
func jsonKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// configKeys lists the keys of the config file, for messages.
func configKeys() []string {
	var keys []string
	t := reflect.TypeOf(configFile{})
	for i := 0; i < t.NumField(); i++ {
		if k := jsonKey(t.Field(i)); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// readConfigFile reads and strictly decodes the config file at path.
func readConfigFile(path string) (*configFile, error) {
	// A named pipe or a device would block the read or never end it.
	if info, err := os.Stat(path); err == nil && !info.IsDir() && !info.Mode().IsRegular() {
		return nil, invalidf("read config %s: %v", path, &safefs.NotRegularError{Mode: info.Mode()})
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	cfg := &configFile{path: path}
	if trimmed := bytes.TrimSpace(js); len(trimmed) == 0 || string(trimmed) == "null" {
		return cfg, nil
	}
	if js[0] != '{' {
		return nil, invalidf("config %s: want a map of keys (%s)", path, strings.Join(configKeys(), ", "))
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		return nil, invalid(configError(path, data, err))
	}
	return cfg, nil
}

// unknownField matches encoding/json's message for an unknown key.
var unknownField = regexp.MustCompile(`^json: unknown field "(.*)"$`)

// configError words a decoding error of the config file at path: an unknown
// key with its line, the keys there are and the closest one; a value of the
// wrong type with its key.
func configError(path string, data []byte, err error) error {
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		key := m[1]
		msg := fmt.Sprintf("%s%s: unknown key %q", path, lineOf(data, key), key)
		if near := suggest.Closest(key, configKeys()); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return fmt.Errorf("%s; the keys are %s", msg, strings.Join(configKeys(), ", "))
	}
	return fmt.Errorf("config %s: %s", path, jsonMessage(err))
}

// lineOf returns ":<line>" for the line where the top-level key key is
// set in data, or "" when it is not found.
func lineOf(data []byte, key string) string {
	re := regexp.MustCompile(`^["']?` + regexp.QuoteMeta(key) + `["']?\s*:`)
	for i, line := range strings.Split(string(data), "\n") {
		if re.MatchString(line) {
			return fmt.Sprintf(":%d", i+1)
		}
	}
	return ""
}
