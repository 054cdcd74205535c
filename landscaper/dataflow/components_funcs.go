package dataflow

import (
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// templateComponents returns what the templates of an installation with
// blueprint bp and component versions tree (may be nil) see: the
// descriptors in the schema the blueprint's ocmSchemaVersion annotation,
// else the root's, says, and the resources' content. def is the
// installation's spec.componentDescriptor: a reference without a tree is a
// component version lscli did not find (the blueprints map gave the
// blueprint), which the component functions then name.
func templateComponents(tree *components.Tree, bp *blueprint.Blueprint, def *lsv1alpha1.ComponentDescriptorDefinition) (*funcs.Components, error) {
	if tree == nil {
		if def != nil && def.Reference != nil {
			c := &funcs.Components{NotFound: def.Reference.ComponentName + ":" + def.Reference.Version}
			var nf *components.NotFoundError
			switch {
			case bp != nil && errors.As(bp.ComponentErr, &nf):
				c.Missing = nf.Key.String()
				c.Unreadable = nf.Failed
			case bp != nil && bp.ComponentErr != nil:
				// A source the lookup could not read (a file the
				// config file maps that is no component source).
				c.LookupErr = bp.ComponentErr.Error()
			}
			return c, nil
		}
		return &funcs.Components{}, nil
	}
	var annotation string
	if bp != nil && bp.Info != nil {
		annotation = bp.Info.Annotations[ocmSchemaVersionAnnotation]
	}
	schema, err := tree.Schema(annotation)
	if err != nil {
		return nil, err
	}
	c := &funcs.Components{Root: tree.Root.Descriptor, Schema: schema, Contents: treeContents{tree}}
	for _, v := range tree.List {
		c.List = append(c.List, *v.Descriptor)
	}
	return c, nil
}

// treeContents reads resource contents of the versions of a tree.
type treeContents struct {
	tree *components.Tree
}

// ResourceContent implements funcs.ContentReader.
func (tc treeContents) ResourceContent(cd *cdv2.ComponentDescriptor, res cdv2.Resource) ([]byte, string, error) {
	v := tc.tree.Find(cd.GetName(), cd.GetVersion())
	if v == nil {
		return nil, "", fmt.Errorf("component %s:%s is not resolved", cd.GetName(), cd.GetVersion())
	}
	c, err := tc.tree.Registry().Content(v, res, components.ForContent)
	if err != nil {
		return nil, "", err
	}
	data, err := c.Bytes()
	return data, c.MediaType, err
}
