package deployers

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/landscaper/condition"
)

// mergeConditions creates or updates conds in di's status.conditions.
func (f *Framework) mergeConditions(di *lsv1alpha1.DeployItem, conds []deployer.Condition) {
	for _, c := range conds {
		di.Status.Conditions = condition.Set(di.Status.Conditions, c.Type, c.Status, c.Reason, c.Message, f.Clock.Now())
	}
}
