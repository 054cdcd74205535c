package dataflow

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// SubinstallationBlueprint returns the spec.blueprint and
// spec.componentDescriptor of the subinstallation that tmpl describes, as a
// child of parent, whose blueprint is parentBP. r resolves blueprint
// references (it may be nil). tmpl.blueprint may be:
//
//   - filesystem: an inline blueprint, which the child gets inline;
//   - ref: cd://[componentReferences/<name>/...]resources/<name>, Landscaper's
//     reference to a blueprint resource of the parent's component or of a
//     component it references: the child gets ref.resourceName and that
//     component (inline when the parent has it inline). lscli resolves the
//     resource through r when the child runs.
//
// and, as lscli extensions that Landscaper does not accept:
//
//   - ref: a folder of the parent blueprint holding a blueprint.yaml
//     (e.g. "blueprints/db"): the child gets that folder inline;
//   - ref: a resource name that r knows: the child gets ref.resourceName.
//
// The child inherits the parent's spec.componentDescriptor unless a cd://
// reference leads to another component. Errors are terminal.
func SubinstallationBlueprint(parent *lsv1alpha1.Installation, parentBP *blueprint.Blueprint, tmpl *lsv1alpha1.InstallationTemplate, r blueprint.Resolver) (*lsv1alpha1.BlueprintDefinition, *lsv1alpha1.ComponentDescriptorDefinition, error) {
	cdDef := parent.Spec.ComponentDescriptor.DeepCopy()
	def := tmpl.Blueprint
	switch {
	case len(def.Filesystem.RawMessage) > 0 && string(def.Filesystem.RawMessage) != "null":
		return &lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: def.Filesystem}}, cdDef, nil
	case strings.HasPrefix(def.Ref, "cd://"):
		bp, cd, err := cdReference(parent, def.Ref)
		if err != nil {
			return nil, nil, fail(parent, ReasonBlueprintInvalid, "subinstallation %q: blueprint.ref %q: %v", tmpl.Name, def.Ref, err)
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
// component descriptor.
func cdReference(parent *lsv1alpha1.Installation, ref string) (*lsv1alpha1.BlueprintDefinition, *lsv1alpha1.ComponentDescriptorDefinition, error) {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(ref, "cd://"), "/"), "/")
	var refs []string
	for len(parts) >= 2 && parts[0] == "componentReferences" {
		refs, parts = append(refs, parts[1]), parts[2:]
	}
	if len(parts) != 2 || parts[0] != "resources" {
		return nil, nil, fmt.Errorf("want cd://[componentReferences/<name>/...]resources/<name>")
	}
	bp := &lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: parts[1]}}
	parentCD := parent.Spec.ComponentDescriptor
	if len(refs) == 0 {
		return bp, parentCD.DeepCopy(), nil
	}
	if parentCD == nil || parentCD.Inline == nil {
		return nil, nil, fmt.Errorf("following component references needs the parent's component descriptor inline (lscli reads no registry)")
	}
	comps, err := funcs.NewComponents(parentCD)
	if err != nil {
		return nil, nil, err
	}
	name, version, cd, err := comps.Follow(refs)
	if err != nil {
		return nil, nil, err
	}
	if cd != nil {
		return bp, &lsv1alpha1.ComponentDescriptorDefinition{Inline: cd}, nil
	}
	return bp, &lsv1alpha1.ComponentDescriptorDefinition{Reference: &lsv1alpha1.ComponentDescriptorReference{
		RepositoryContext: parentCD.Inline.GetEffectiveRepositoryContext(), ComponentName: name, Version: version}}, nil
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
