package deletion

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PollInterval is how long Landscaper waits before deleting a group again.
const PollInterval = time.Second

// Checkpoint is the timeout checkpoint while objects are being deleted.
const Checkpoint = "deployer: delete resources"

// SecondaryClient returns the client for the Target named targetName in the
// deploy item's namespace.
type SecondaryClient func(ctx context.Context, targetName string) (client.Client, error)

// DefaultGroups are the deletion groups used when none are defined:
// namespaced resources, then cluster-scoped resources, then CRDs.
func DefaultGroups() []managedresource.DeletionGroupDefinition {
	def := func(t managedresource.PredefinedResourceGroupType) managedresource.DeletionGroupDefinition {
		return managedresource.DeletionGroupDefinition{PredefinedResourceGroup: &managedresource.PredefinedResourceGroup{Type: t}}
	}
	return []managedresource.DeletionGroupDefinition{
		def(managedresource.PredefinedResourceGroupNamespacedResources),
		def(managedresource.PredefinedResourceGroupClusterScopedResources),
		def(managedresource.PredefinedResourceGroupCRDs),
	}
}

// Groups deletes managed objects group by group.
type Groups struct {
	// Client is the deploy item's target cluster. Required.
	Client client.Client
	// Definitions are the groups in order. Empty means DefaultGroups.
	Definitions []managedresource.DeletionGroupDefinition
	// Secondary resolves the targetName of custom groups. Nil makes a
	// targetName an error.
	Secondary SecondaryClient
	// Resumed is true while the deletion is under way: the pass goes on
	// with Landscaper's loop, which lists the objects of a
	// deleteAllResources group once, when it reaches the group, and never
	// looks at a finished group again. Then a deleteAllResources group
	// whose types are no longer served (a later group deleted their CRDs)
	// has nothing left, where a first pass fails as Landscaper does.
	Resumed bool
}

// Progress says how far a deletion got.
type Progress struct {
	// Done is true when every group is gone.
	Done bool
	// Group is the index of the group being deleted while not Done.
	Group int
	// Remaining are that group's objects that are not gone yet.
	Remaining []corev1.ObjectReference
}

// Delete makes one deletion pass over resources (see the package
// documentation). An invalid group definition is an error; so is a failure to
// list the objects of a deleteAllResources group. Nothing to delete is Done
// at once, even with deleteAllResources groups, as in Landscaper.
func (g Groups) Delete(ctx context.Context, resources managedresource.ManagedResourceStatusList) (Progress, error) {
	if len(resources) == 0 {
		return Progress{Done: true}, nil
	}
	groups, err := g.build(ctx)
	if err != nil {
		return Progress{}, err
	}
	for i := range resources {
		for _, grp := range groups {
			if grp.match(&resources[i]) {
				grp.refs = append(grp.refs, resources[i].Resource)
				break
			}
		}
	}
	for i, grp := range groups {
		remaining, err := grp.deletePass(ctx)
		if err != nil {
			return Progress{}, err
		}
		if len(remaining) > 0 {
			return Progress{Group: i, Remaining: remaining}, nil
		}
	}
	return Progress{Done: true}, nil
}

// Settle makes passes (see Delete) for as long as they make progress: until
// everything is gone, or a pass finds the same objects of the same group
// still there (held by finalizers, or a delete that keeps failing). Objects
// that go away when deleted so need no waiting; only stuck objects make the
// caller poll again after PollInterval.
func (g Groups) Settle(ctx context.Context, resources managedresource.ManagedResourceStatusList) (Progress, error) {
	last := Progress{Group: -1}
	for {
		p, err := g.Delete(ctx, resources)
		if err != nil || p.Done {
			return p, err
		}
		g.Resumed = true
		if p.Group == last.Group && len(p.Remaining) >= len(last.Remaining) {
			return p, nil
		}
		last = p
	}
}

// build validates the definitions and makes their groups.
func (g Groups) build(ctx context.Context) ([]*group, error) {
	defs := g.Definitions
	if len(defs) == 0 {
		defs = DefaultGroups()
	}
	groups := make([]*group, len(defs))
	for i, def := range defs {
		grp, err := g.newGroup(ctx, def)
		if err != nil {
			return nil, err
		}
		groups[i] = grp
	}
	return groups, nil
}

// newGroup checks def as Landscaper does and resolves its client.
func (g Groups) newGroup(ctx context.Context, def managedresource.DeletionGroupDefinition) (*group, error) {
	switch {
	case def.IsPredefined() && def.IsCustom():
		return nil, errors.New("invalid deletion group: predefinedResourceGroup and customResourceGroup must not both be set")
	case def.IsPredefined():
		if !slices.Contains(predefinedTypes, def.PredefinedResourceGroup.Type) {
			return nil, fmt.Errorf("invalid deletion group: unsupported type of predefinedResourceGroup: %s", def.PredefinedResourceGroup.Type)
		}
		return &group{def: def, client: g.Client, force: def.PredefinedResourceGroup.ForceDelete}, nil
	case !def.IsCustom():
		return nil, errors.New("invalid deletion group: either predefinedResourceGroup or customResourceGroup must be set")
	}
	custom := def.CustomResourceGroup
	grp := &group{def: def, client: g.Client, force: custom.ForceDelete, all: custom.DeleteAllResources, resumed: g.Resumed}
	if custom.TargetName == nil {
		return grp, nil
	}
	if !custom.DeleteAllResources {
		return nil, errors.New("invalid deletion group: customResourceGroup.DeleteAllResources must be true if TargetName is set")
	}
	if g.Secondary == nil {
		return nil, fmt.Errorf("unable to get secondary target %s: no target resolver", *custom.TargetName)
	}
	c, err := g.Secondary(ctx, *custom.TargetName)
	if err != nil {
		return nil, err
	}
	grp.client, grp.secondary = c, true
	return grp, nil
}

var predefinedTypes = []managedresource.PredefinedResourceGroupType{
	managedresource.PredefinedResourceGroupNamespacedResources,
	managedresource.PredefinedResourceGroupClusterScopedResources,
	managedresource.PredefinedResourceGroupCRDs,
	managedresource.PredefinedResourceGroupEmpty,
}
