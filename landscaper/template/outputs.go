package template

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gardener/landscaper/apis/core"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/apidecode"
	"github.com/lscli/lscli/landscaper/blueprint"
)

// The types below are the shapes Landscaper's templaters decode an
// execution's rendered output into (package template of
// pkg/landscaper/installations/executions), with the same names, fields,
// JSON tags and field types. lscli decodes outputs into types of its own,
// whose errors it words in the blueprint's terms; decoding an output that
// failed into these (with sigs.k8s.io/yaml, as Landscaper does) gives the
// message Landscaper's templaters get, which names them.

// ImportExecutorOutput is the output of an import execution.
type ImportExecutorOutput struct {
	Bindings map[string]interface{} `json:"bindings"`
	Errors   []string               `json:"errors"`
}

// DeployExecutorOutput is the output of a deploy execution.
type DeployExecutorOutput struct {
	DeployItems []DeployItemSpecification `json:"deployItems"`
}

// DeployItemSpecification is one deploy item of a DeployExecutorOutput.
type DeployItemSpecification struct {
	Name               string                `json:"name"`
	Type               core.DeployItemType   `json:"type"`
	Target             *TargetReference      `json:"target,omitempty"`
	Labels             map[string]string     `json:"labels,omitempty"`
	Configuration      *runtime.RawExtension `json:"config"`
	DependsOn          []string              `json:"dependsOn,omitempty"`
	Timeout            *lsv1alpha1.Duration  `json:"timeout,omitempty"`
	UpdateOnChangeOnly bool                  `json:"updateOnChangeOnly,omitempty"`
	// OnDelete has no JSON tag in Landscaper either: its key is matched
	// by the field's name, case-insensitively.
	OnDelete *core.OnDeleteConfig
}

// TargetReference is the target of a DeployItemSpecification.
type TargetReference struct {
	Name   string  `json:"name,omitempty"`
	Import string  `json:"import,omitempty"`
	Index  *int    `json:"index,omitempty"`
	Key    *string `json:"key,omitempty"`
}

// ExportExecutorOutput is the output of an export execution.
type ExportExecutorOutput struct {
	Exports map[string]interface{} `json:"exports"`
}

// SubinstallationExecutorOutput is the output of a subinstallation
// execution. It decodes in two steps, as Landscaper's does: the list of
// entries (into helperStruct), then each entry with the API decoder.
type SubinstallationExecutorOutput struct {
	Subinstallations []*lsv1alpha1.InstallationTemplate `json:"subinstallations"`
}

// helperStruct is the first step of decoding a
// SubinstallationExecutorOutput; Landscaper's messages name it.
type helperStruct struct {
	Subinstallations []json.RawMessage `json:"subinstallations"`
}

// UnmarshalJSON decodes the entries, then each of them as an
// InstallationTemplate; an entry that does not decode is an error that
// names its index.
func (o *SubinstallationExecutorOutput) UnmarshalJSON(data []byte) error {
	var h helperStruct
	if err := json.Unmarshal(data, &h); err != nil {
		return err
	}
	tmpls := make([]*lsv1alpha1.InstallationTemplate, len(h.Subinstallations))
	for i, raw := range h.Subinstallations {
		t := &lsv1alpha1.InstallationTemplate{}
		if err := blueprint.DecodeFile(raw, t); err != nil {
			// The decoder's own message, without the advice DecodeFile
			// adds for a file of a blueprint.
			var ke *apidecode.KindError
			if errors.As(err, &ke) {
				err = ke
			}
			return fmt.Errorf("unable to decode installation template %d: %w", i, err)
		}
		tmpls[i] = t
	}
	o.Subinstallations = tmpls
	return nil
}
