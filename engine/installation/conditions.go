package installation

import (
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/condition"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// Reasons and messages of the installation's conditions, as Landscaper's
// installation operations write them (pkg/landscaper/installations).
const (
	reasonTemplatingFailed = "TemplatingFailed"
	// reasonImportsFailed is what Landscaper's imports package calls its
	// TemplatingFailedReason.
	reasonImportsFailed = "ImportValidationFailed"
	msgTemplatingFailed = "Unable to template executions"
)

// setCondition creates or updates the condition typ of inst at the
// virtual time. Landscaper never resets the conditions: a condition that
// only a failure sets (ValidateImports, CreateImports) keeps saying False
// in later jobs that succeed.
func (c *Controller) setCondition(inst *lsv1alpha1.Installation, typ lsv1alpha1.ConditionType, status lsv1alpha1.ConditionStatus, reason, message string) {
	inst.Status.Conditions = condition.Set(inst.Status.Conditions, typ, status, reason, message, c.cfg.Clock.Now())
}

// importExecutionsFailed marks an error of the import executions in the
// ValidateImports condition, as Landscaper's RenderImportExecutions does:
// the errors the executions returned, joined, or that the template failed.
func (c *Controller) importExecutionsFailed(inst *lsv1alpha1.Installation, err error) {
	msg := msgTemplatingFailed
	var errs dataflow.ImportExecutionErrors
	if errors.As(err, &errs) {
		msg = errs.Error()
	}
	c.setCondition(inst, lsv1alpha1.ValidateImportsCondition, lsv1alpha1.ConditionFalse, reasonImportsFailed, msg)
}

// deployItemsFailed marks an error of rendering the deploy items in the
// ReconcileExecution condition, as Landscaper's RenderDeployItemTemplates
// does: what is wrong with a rendered item, or that the template failed.
func (c *Controller) deployItemsFailed(inst *lsv1alpha1.Installation, err error) {
	msg := msgTemplatingFailed
	var item *dataflow.DeployItemError
	if errors.As(err, &item) {
		msg = item.LandscaperText()
	}
	c.setCondition(inst, lsv1alpha1.ReconcileExecutionCondition, lsv1alpha1.ConditionFalse, reasonTemplatingFailed, msg)
}

// writeFailed marks a failed write of an import or export object in the
// CreateImports or CreateExports condition, with Landscaper's reasons and
// messages. Other errors leave the conditions as they are.
func (c *Controller) writeFailed(inst *lsv1alpha1.Installation, err error) {
	var we *dataflow.WriteError
	if !errors.As(err, &we) {
		return
	}
	typ, reason, what := lsv1alpha1.CreateImportsCondition, "CreateTargets", "target"
	if we.Type == lsv1alpha1.ImportTypeData {
		reason, what = "CreateDataObjects", "data object"
	}
	var msg string
	switch {
	case we.Export:
		typ = lsv1alpha1.CreateExportsCondition
		msg = fmt.Sprintf("unable to create %s for export %s", what, we.Key)
	case we.Type == lsv1alpha1.ImportTypeTargetMap:
		msg = fmt.Sprintf("unable to create target for targetmap import '%s'", we.Key)
	default:
		msg = fmt.Sprintf("unable to create %s for import '%s'", what, we.Key)
	}
	c.setCondition(inst, typ, lsv1alpha1.ConditionFalse, reason, msg)
}
