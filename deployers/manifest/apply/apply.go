package apply

import (
	"context"
	"fmt"
	"sort"

	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	apimacherrors "k8s.io/apimachinery/pkg/util/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/reconcile"
)

// DeployItemLabel marks every object a deploy item applies; its value is the
// deploy item's name. The fallback policy uses it to tell our objects from
// others'.
const DeployItemLabel = deletion.DeployItemLabel

// Options says what to apply where.
type Options struct {
	// Client is the target cluster. Required.
	Client client.Client
	// DeployItem is the deploy item's name, the value of DeployItemLabel.
	// Required.
	DeployItem string
	// UpdateStrategy says how existing objects are updated: update, patch,
	// merge or mergeOverwrite. There is no default: as in Landscaper's
	// applier, any other value, the empty one too (a configuration without
	// apiVersion gets no defaults), fails the update of an existing object;
	// creating objects works.
	UpdateStrategy manifestv1alpha2.UpdateStrategy
	// Manifests are the manifests to apply, with their policies and hooks.
	Manifests []managedresource.Manifest
	// ManagedResources is the previous inventory (the item's
	// providerStatus.managedResources); its objects that are not applied
	// again are deleted as orphans.
	ManagedResources managedresource.ManagedResourceStatusList
	// Labels are put on every object besides DeployItemLabel (the helm
	// deployer adds its own deploy item label).
	Labels map[string]string
	// DefaultNamespace is given to namespaced objects without a namespace.
	// Empty means such objects fail, as the manifest deployer's do.
	DefaultNamespace string
	// DeletionGroupsDuringUpdate are the deletion groups for orphans. Empty
	// means deletion.DefaultGroups.
	DeletionGroupsDuringUpdate []managedresource.DeletionGroupDefinition
	// Secondary resolves the targetName of deletion groups. Nil makes a
	// targetName an error.
	Secondary deletion.SecondaryClient
}

// Result is what an apply did.
type Result struct {
	// ManagedResources is the new inventory: the objects applied or left
	// alone as immutable, in Landscaper's order. When objects fail it holds
	// those recorded (Landscaper writes this partial list); when Apply fails
	// before writing anything (bad manifest, unknown kind) it is the previous
	// inventory.
	ManagedResources managedresource.ManagedResourceStatusList
	// Patches are the patchAfterDeployment hooks of the objects written, to
	// run with PatchAfterDeployment once the objects are ready.
	Patches []Patch
	// Orphans says how far the deletion of orphaned objects got. While it is
	// not Done the apply is not finished: call Apply again after
	// deletion.PollInterval (Landscaper waits inside the call).
	Orphans deletion.Progress
}

// Apply applies opts.Manifests group by group and then deletes the orphans
// of opts.ManagedResources (see the package documentation). The error of a
// failed apply lists every object that failed, as Landscaper's applier's
// (operation ApplyObjects, reason ApplyNewObject; cleanupOrphanedResourcesInGroups
// for the orphans); the returned Result is still valid then.
func Apply(ctx context.Context, opts Options) (Result, error) {
	groups, err := group(opts.Client, opts.Manifests)
	if err != nil {
		return Result{ManagedResources: opts.ManagedResources}, err
	}
	var res Result
	var errs []error
	for _, items := range groups {
		var recorded managedresource.ManagedResourceStatusList
		for _, it := range items {
			mr, patch, err := applyItem(ctx, opts, it)
			if err != nil {
				errs = append(errs, err)
			}
			if mr != nil {
				recorded = append(recorded, *mr)
			}
			if patch != nil {
				res.Patches = append(res.Patches, *patch)
			}
		}
		sortManaged(recorded)
		res.ManagedResources = append(res.ManagedResources, recorded...)
	}
	if len(errs) > 0 {
		agg := apimacherrors.NewAggregate(errs)
		return res, reconcile.WrapError(agg, "ApplyObjects", "ApplyNewObject", agg.Error())
	}
	if res.Orphans, err = cleanupOrphans(ctx, opts, res.ManagedResources); err != nil {
		err = fmt.Errorf("unable to cleanup orphaned resources: %w", err)
		return res, reconcile.WrapError(err, "ApplyObjects", "cleanupOrphanedResourcesInGroups", err.Error())
	}
	return res, nil
}

// sortManaged sorts like Landscaper: by the printed object reference, which
// starts with kind, namespace and name.
func sortManaged(list managedresource.ManagedResourceStatusList) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].Resource.String() < list[j].Resource.String() })
}
