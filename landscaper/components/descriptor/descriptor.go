package descriptor

import (
	"encoding/json"
	"errors"
	"fmt"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"
)

// The schemas a component descriptor may be written in.
const (
	// SchemaV2 is the legacy component-spec schema (meta.schemaVersion: v2).
	SchemaV2 = cdv2.SchemaVersion
	// SchemaV3 is OCM's schema ocm.software/v3alpha1 (kind ComponentVersion).
	SchemaV3 = "ocm.software/v3alpha1"
)

// kindV3 is the kind of a v3alpha1 component descriptor.
const kindV3 = "ComponentVersion"

// ErrUnknownSchema is returned for a document that is no component
// descriptor of a known schema.
var ErrUnknownSchema = errors.New("unsupported component descriptor: want meta.schemaVersion v2 or apiVersion ocm.software/v3alpha1 with kind ComponentVersion")

// header is what tells the schema of a document.
type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Meta       struct {
		SchemaVersion string `json:"schemaVersion"`
	} `json:"meta"`
}

// SchemaOf returns the schema of a component descriptor in YAML or JSON,
// or ErrUnknownSchema. An apiVersion wins over meta.schemaVersion, as in
// Landscaper.
func SchemaOf(data []byte) (string, error) {
	var h header
	if err := yaml.Unmarshal(data, &h); err != nil {
		return "", err
	}
	return h.schema()
}

func (h header) schema() (string, error) {
	switch {
	case h.APIVersion == SchemaV3 && h.Kind == kindV3:
		return SchemaV3, nil
	case h.APIVersion != "":
		return "", fmt.Errorf("%w (got apiVersion %q, kind %q)", ErrUnknownSchema, h.APIVersion, h.Kind)
	case h.Meta.SchemaVersion == SchemaV2:
		return SchemaV2, nil
	}
	return "", ErrUnknownSchema
}

// Decode reads a component descriptor in schema v2 or v3alpha1 from YAML or
// JSON and returns it as the v2 model, defaulted as Landscaper defaults it,
// and the schema it was written in.
func Decode(data []byte) (*cdv2.ComponentDescriptor, string, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, "", err
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, "", fmt.Errorf("not a component descriptor: %w", err)
	}
	schema, err := h.schema()
	if err != nil {
		return nil, "", err
	}
	var cd *cdv2.ComponentDescriptor
	if schema == SchemaV3 {
		cd, err = decodeV3(js)
	} else {
		cd, err = decodeV2(js)
	}
	if err != nil {
		return nil, "", err
	}
	if err := check(cd); err != nil {
		return nil, "", err
	}
	return cd, schema, nil
}

// decodeV2 decodes a v2 document.
func decodeV2(js []byte) (*cdv2.ComponentDescriptor, error) {
	cd := &cdv2.ComponentDescriptor{}
	if err := json.Unmarshal(js, cd); err != nil {
		return nil, err
	}
	return cd, nil
}

// check defaults cd and checks what every descriptor must have.
func check(cd *cdv2.ComponentDescriptor) error {
	if cd.GetName() == "" || cd.GetVersion() == "" {
		return errors.New("component descriptor has no component name or version")
	}
	cd.Metadata.Version = SchemaV2
	return cdv2.DefaultComponent(cd)
}

// FromMap reads a component descriptor that a template holds as generic
// JSON, in either schema, as Landscaper's template functions accept it.
func FromMap(m map[string]any) (*cdv2.ComponentDescriptor, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("invalid component descriptor: %w", err)
	}
	var h header
	_ = json.Unmarshal(data, &h)
	if h.APIVersion == "" && h.Meta.SchemaVersion == "" {
		return nil, errors.New("unable to determine component descriptor schema version")
	}
	cd, _, err := Decode(data)
	return cd, err
}

// Encode returns cd as generic JSON in schema (SchemaV2 or SchemaV3), as
// templates see it.
func Encode(cd *cdv2.ComponentDescriptor, schema string) (map[string]any, error) {
	var v any
	switch schema {
	case SchemaV2:
		c := cd.DeepCopy()
		c.Metadata.Version = SchemaV2
		if err := cdv2.DefaultComponent(c); err != nil {
			return nil, err
		}
		v = c
	case SchemaV3:
		v = toV3(cd)
	default:
		return nil, fmt.Errorf("unknown schema version %q", schema)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	err = json.Unmarshal(data, &out)
	return out, err
}
