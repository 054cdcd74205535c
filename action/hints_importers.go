package action

import (
	"context"
	"fmt"
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
)

// importerCandidates returns the installations whose imports the hint on
// changed imports looks at (staleImporters): those of ls, then, in the
// namespaces of the objects applied updated that an installation can
// import (DataObjects, Targets, Secrets, ConfigMaps), the installations
// of the state that ls does not hold (and that are not being deleted). A
// user who reconciles only the file of a changed DataObject (lscli
// reconcile settings/) is told about the installations that import it as
// one who reconciles the installations' files too. The state is not read
// when nothing importable changed (a changed root installation), so that
// a big state costs nothing here.
func importerCandidates(ctx context.Context, c *fakecluster.Cluster, ls *landscape.Landscape, applied landscape.ApplyResult) ([]*lsv1alpha1.Installation, error) {
	var out []*lsv1alpha1.Installation
	inFiles := map[types.NamespacedName]bool{}
	for _, d := range ls.Objects {
		if inst, ok := d.Object.(*lsv1alpha1.Installation); ok {
			out = append(out, inst)
			inFiles[types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}] = true
		}
	}
	var namespaces []string
	for _, ref := range applied.Updated {
		switch ref.Kind {
		case "DataObject", "Target", "Secret", "ConfigMap":
			if !slices.Contains(namespaces, ref.Namespace) {
				namespaces = append(namespaces, ref.Namespace)
			}
		}
	}
	for _, ns := range namespaces {
		list := &lsv1alpha1.InstallationList{}
		if err := c.List(ctx, list, fakecluster.ListOptions{Namespace: ns}); err != nil {
			return nil, fmt.Errorf("list installations of namespace %s for the hint on changed imports: %w", ns, err)
		}
		for i := range list.Items {
			inst := &list.Items[i]
			if inst.DeletionTimestamp == nil && !inFiles[types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}] {
				out = append(out, inst)
			}
		}
	}
	return out, nil
}
