package action

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// Delete deletes a root installation and runs to the end: `lscli delete`.
type Delete struct {
	cfg *Configuration
	// Name names the root installation.
	Name string
	// Namespace narrows the lookup; empty finds Name in any namespace.
	Namespace string
	// WithoutUninstall sets landscaper.gardener.cloud/delete-without-uninstall
	// first: the objects go, but deployers leave what they deployed.
	WithoutUninstall bool
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewDelete returns the delete action over cfg.
func NewDelete(cfg *Configuration) *Delete { return &Delete{cfg: cfg} }

// Run deletes the root, runs and reports on it. A subinstallation is invalid
// input.
func (a *Delete) Run(ctx context.Context) (*Run, error) {
	return operate(ctx, a.cfg, operation{kind: "Installation", name: a.Name, namespace: a.Namespace,
		check: requireRoot("deleted"), act: a.delete}, a.RunOptions)
}

// delete deletes the installation, with the delete-without-uninstall
// annotation first when asked.
func (a *Delete) delete(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error {
	if a.WithoutUninstall {
		ann := obj.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann[lsv1alpha1.DeleteWithoutUninstallAnnotation] = "true"
		obj.SetAnnotations(ann)
		if err := c.Update(ctx, obj); err != nil {
			return err
		}
	}
	return DeleteObject(ctx, c, obj)
}
