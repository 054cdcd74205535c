package landscape

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/webhook"
)

// CheckUpdates checks the objects of l that exist in c as Landscaper's
// webhooks check an update: a DeployItem cannot change its spec.type. It
// returns a [*LoadError] naming each file and object that [Apply] would
// update against such a check, nil when there is none; call it before
// Apply, so that refused input changes nothing.
func CheckUpdates(ctx context.Context, c *fakecluster.Cluster, l *Landscape) error {
	if l == nil {
		return nil
	}
	var problems []Problem
	for _, d := range l.Objects {
		di, ok := d.Object.(*lsv1alpha1.DeployItem)
		if !ok {
			continue
		}
		live := &lsv1alpha1.DeployItem{}
		err := c.Get(ctx, types.NamespacedName{Namespace: di.Namespace, Name: di.Name}, live)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("check update of DeployItem %s/%s: %w", di.Namespace, di.Name, err)
		}
		// Apply adds the file's labels to the stored ones.
		updated := di.DeepCopy()
		updated.Labels = merge(live.Labels, di.Labels)
		if webhook.DeployItemUpdate(live, updated) == nil {
			continue
		}
		problems = append(problems, Problem{File: d.File, Document: d.Index, Object: objectName("DeployItem", di.Name),
			Message: fmt.Sprintf("spec.type %q: the simulation's DeployItem %s/%s has type %q, and Landscaper's webhook refuses "+
				"to change it (%s); delete it first (lscli delete deployitem %s -n %s) or give the new one another name",
				di.Spec.Type, di.Namespace, di.Name, live.Spec.Type, webhook.TypeImmutable, di.Name, di.Namespace)})
	}
	if len(problems) > 0 {
		return &LoadError{Problems: problems}
	}
	return nil
}
