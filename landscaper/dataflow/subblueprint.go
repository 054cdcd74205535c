package dataflow

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/reconcile"
)

// SubinstallationBlueprint returns the spec.blueprint and
// spec.componentDescriptor of the subinstallation that tmpl describes, as a
// child of parent, whose blueprint is parentBP and whose component versions
// are tree (nil when it has none). r resolves lscli's blueprint references
// (it may be nil). tmpl.blueprint may be:
//
//   - filesystem: an inline blueprint, which the child gets inline;
//   - ref: cd://[componentReferences/<name>/...]resources/<name>, Landscaper's
//     reference to a blueprint resource of the parent's component or of a
//     component it references: the child gets ref.resourceName and a
//     reference to that component, as Landscaper gives it (see cdReference);
//
// and, as lscli extensions that Landscaper does not accept:
//
//   - ref: a folder of the parent blueprint holding a blueprint.yaml
//     (e.g. "blueprints/db"): the child gets that folder inline;
//   - ref: a resource name that r knows: the child gets ref.resourceName.
//
// With the extensions and inline blueprints the child inherits the parent's
// spec.componentDescriptor. Errors are terminal.
func SubinstallationBlueprint(parent *lsv1alpha1.Installation, parentBP *blueprint.Blueprint, tree *components.Tree, tmpl *lsv1alpha1.InstallationTemplate, r blueprint.Resolver) (*lsv1alpha1.BlueprintDefinition, *lsv1alpha1.ComponentDescriptorDefinition, error) {
	cdDef := parent.Spec.ComponentDescriptor.DeepCopy()
	def := tmpl.Blueprint
	switch {
	case len(def.Filesystem.RawMessage) > 0 && string(def.Filesystem.RawMessage) != "null":
		return &lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: def.Filesystem}}, cdDef, nil
	case strings.HasPrefix(def.Ref, "cd://"):
		bp, cd, err := cdReference(parent, tree, def.Ref)
		if err != nil {
			// The status gets Landscaper's error alone
			// (GetBlueprintDefinitionFromInstallationTemplate).
			ie := about(parent, err, "subinstallation %q: blueprint.ref %q: %v", tmpl.Name, def.Ref, err)
			ie.Landscaper = err.Error()
			return nil, nil, reconcile.TerminalWithCodes(ie, ReasonBlueprintInvalid)
		}
		return bp, cd, nil
	case def.Ref != "":
		bp, err := localReference(parent, parentBP, def.Ref, r)
		if err != nil {
			return nil, nil, fail(parent, ReasonBlueprintInvalid, "subinstallation %q: blueprint.ref %q: %v", tmpl.Name, def.Ref, err)
		}
		return bp, cdDef, nil
	}
	return nil, nil, fail(parent, ReasonBlueprintInvalid, "subinstallation %q has neither blueprint.ref nor blueprint.filesystem", tmpl.Name)
}

// cdReference resolves a cd:// blueprint reference against the parent's
// component versions, as Landscaper does: the resource must exist; for
// cd://resources/<name> the child references the parent's component in
// that component's own repository context; through component references,
// it gets the referenced component inline when the parent's inline
// descriptor carries it in a reference's label, else a reference to it in
// the parent's repository context.
func cdReference(parent *lsv1alpha1.Installation, tree *components.Tree, ref string) (*lsv1alpha1.BlueprintDefinition, *lsv1alpha1.ComponentDescriptorDefinition, error) {
	uri, err := components.ParseURI(ref)
	if err != nil {
		return nil, nil, err
	}
	if tree == nil {
		return nil, nil, errors.New("no component descriptor defined to resolve the blueprint ref")
	}
	// The resource is looked up as the references are written, the
	// component with the Context's overwrites applied.
	_, res, err := tree.FollowAsWritten(tree.Root, uri)
	if err != nil {
		return nil, nil, fmt.Errorf("unable to resolve blueprint ref in component descriptor %s: %w", tree.Root.Key().Name, err)
	}
	if res.Name == "" {
		return nil, nil, fmt.Errorf("expected a resource from the component descriptor %s", tree.Root.Key().Name)
	}
	target, _, err := tree.Follow(tree.Root, uri)
	if err != nil {
		return nil, nil, fmt.Errorf("unable to resolve component of blueprint ref in component descriptor %s: %w", tree.Root.Key().Name, err)
	}
	bp := &lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: res.Name}}
	refs, _, _ := uri.References()
	if len(refs) == 0 {
		return bp, &lsv1alpha1.ComponentDescriptorDefinition{Reference: &lsv1alpha1.ComponentDescriptorReference{
			RepositoryContext: cdRepo(target), ComponentName: target.Key().Name, Version: target.Key().Version}}, nil
	}
	if nested := nestedInline(parent, target.Key().Name, target.Key().Version); nested != nil {
		return bp, &lsv1alpha1.ComponentDescriptorDefinition{Inline: nested}, nil
	}
	// The child references the component as the last reference names it,
	// without overwrites: its own resolution applies them.
	last := lastReference(tree, refs)
	return bp, &lsv1alpha1.ComponentDescriptorDefinition{Reference: &lsv1alpha1.ComponentDescriptorReference{
		RepositoryContext: tree.Repo.DeepCopy(), ComponentName: last.ComponentName, Version: last.Version}}, nil
}

// lastReference returns the component reference that the last of refs, a
// path of reference names that tree.Follow has followed from the root,
// names.
func lastReference(tree *components.Tree, refs []string) *cdv2.ComponentReference {
	v := tree.Root
	var last *cdv2.ComponentReference
	for _, name := range refs {
		v, last, _ = tree.Referenced(v, name)
	}
	return last
}

// nestedInline returns the descriptor name:version that the parent's inline
// descriptor carries in the label of one of its component references, or
// nil.
func nestedInline(parent *lsv1alpha1.Installation, name, version string) *cdv2.ComponentDescriptor {
	def := parent.Spec.ComponentDescriptor
	if def == nil || def.Inline == nil {
		return nil
	}
	for _, r := range def.Inline.ComponentReferences {
		if r.ComponentName != name || r.Version != version {
			continue
		}
		raw, ok := r.Labels.Get(lsv1alpha1.InlineComponentDescriptorLabel)
		if !ok {
			continue
		}
		if cd, _, err := descriptor.Decode(raw); err == nil {
			return cd
		}
	}
	return nil
}

// localReference resolves lscli's own blueprint references: a folder of the
// parent blueprint, or a resource name r knows.
func localReference(parent *lsv1alpha1.Installation, parentBP *blueprint.Blueprint, ref string, r blueprint.Resolver) (*lsv1alpha1.BlueprintDefinition, error) {
	dir := path.Clean(strings.TrimPrefix(ref, "/"))
	if parentBP != nil && parentBP.FS != nil && fs.ValidPath(dir) {
		if _, err := fs.Stat(parentBP.FS, path.Join(dir, lsv1alpha1.BlueprintFileName)); err == nil {
			fsys, err := blueprint.Inline(parentBP.FS, dir)
			if err != nil {
				return nil, err
			}
			return &lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: fsys}}, nil
		}
	}
	if r != nil {
		_, err := r.Resolve(blueprint.Reference{ResourceName: ref, ComponentName: blueprint.ComponentName(parent)})
		if err == nil {
			return &lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: ref}}, nil
		}
		if !errors.Is(err, blueprint.ErrNotFound) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("is neither a cd:// reference, nor a folder of the blueprint with a %s, nor a blueprint that the "+
		"blueprints map of the config file names", lsv1alpha1.BlueprintFileName)
}
