package landscape

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lsvalidation "github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
)

// validateExecution checks the deploy items of an Execution as Landscaper's
// webhook does (ValidateExecution): names are set and unique, types are
// set, targets have a name and namespace, labels are valid, and, unless a
// name is used twice, dependencies exist and have no cycles.
func validateExecution(obj fakecluster.Object) []string {
	exec := obj.(*lsv1alpha1.Execution)
	return webhookErrors("Execution", exec, lsv1alpha1.Convert_v1alpha1_Execution_To_core_Execution,
		lsvalidation.ValidateExecution, executionHint(exec.Spec.DeployItems))
}

// executionHint gives lscli's advice for the errors of Landscaper's
// ValidateExecution of the deploy items items.
func executionHint(items lsv1alpha1.DeployItemTemplateList) hinter {
	return func(e *field.Error) string {
		if h := typeHint(e); h != "" {
			return h
		}
		switch v := e.BadValue.(type) {
		case lsvalidation.Cycle:
			return fmt.Sprintf("dependsOn %s -> %s: remove one of these dependencies",
				strings.Join(v, " -> "), v[0])
		case string:
			switch {
			case e.Type == field.ErrorTypeDuplicate:
				return fmt.Sprintf("deploy item names are unique in an Execution: first at spec.deployItems[%d]",
					firstDeployItem(items, v))
			case e.Detail == "depends on undefined deploy item":
				return "deploy items of this Execution: " + strings.Join(deployItemNames(items), ", ")
			}
		}
		return ""
	}
}

// firstDeployItem returns the index of the first deploy item named name.
func firstDeployItem(items lsv1alpha1.DeployItemTemplateList, name string) int {
	for i, di := range items {
		if di.Name == name {
			return i
		}
	}
	return -1
}

// deployItemNames returns the names of items in order.
func deployItemNames(items lsv1alpha1.DeployItemTemplateList) []string {
	names := make([]string, len(items))
	for i, di := range items {
		names[i] = di.Name
	}
	return names
}
