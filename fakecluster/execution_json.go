package fakecluster

import (
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ExecutionInClear has the shape of an Execution, but its spec marshals
// spec.deployItems in clear: Landscaper's ExecutionSpec.MarshalJSON gzips
// them into spec.deployItemsCompressed, which neither a person nor jq can
// read. ExecutionSpec.UnmarshalJSON reads both forms, so an ExecutionInClear
// decodes back into an Execution.
type ExecutionInClear struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ExecutionSpecInClear       `json:"spec"`
	Status            lsv1alpha1.ExecutionStatus `json:"status"`
}

// ExecutionSpecInClear has ExecutionSpec's fields but not its methods.
type ExecutionSpecInClear lsv1alpha1.ExecutionSpec

// InClear returns exec as an ExecutionInClear with typeMeta, with
// deployItemsCompressed inflated into deployItems.
func InClear(exec *lsv1alpha1.Execution, typeMeta metav1.TypeMeta) (*ExecutionInClear, error) {
	spec := exec.Spec
	if len(spec.DeployItemsCompressed) > 0 {
		// Inflate through the API's own UnmarshalJSON.
		raw, err := json.Marshal(map[string][]byte{"deployItemsCompressed": spec.DeployItemsCompressed})
		if err != nil {
			return nil, err
		}
		var decoded lsv1alpha1.ExecutionSpec
		if err := json.Unmarshal(raw, &decoded); err != nil {
			return nil, fmt.Errorf("Execution %s/%s: inflate spec.deployItemsCompressed: %w", exec.Namespace, exec.Name, err)
		}
		spec.DeployItems = append(decoded.DeployItems, spec.DeployItems...)
		spec.DeployItemsCompressed = nil
	}
	return &ExecutionInClear{TypeMeta: typeMeta, ObjectMeta: exec.ObjectMeta,
		Spec: ExecutionSpecInClear(spec), Status: exec.Status}, nil
}
