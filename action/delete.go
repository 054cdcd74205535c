package action

import (
	"context"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// Delete deletes an object and runs to the end: `lscli delete`.
type Delete struct {
	cfg *Configuration
	// Kind is the kind of the object, as KindAliases spell it (e.g. "di",
	// "Target"). Empty means a root installation.
	Kind string
	// Name names the object.
	Name string
	// Namespace narrows the lookup; empty finds Name in any namespace.
	Namespace string
	// Objects, when set, are the objects to delete together instead of
	// Kind, Name and Namespace (kubectl delete KIND NAME NAME...): every one
	// must exist, and all are deleted before the one run.
	Objects []ObjectName
	// WithoutUninstall sets landscaper.gardener.cloud/delete-without-uninstall
	// first: the objects go, but deployers leave what they deployed. Only for
	// Installations, Executions and DeployItems.
	WithoutUninstall bool
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewDelete returns the delete action over cfg.
func NewDelete(cfg *Configuration) *Delete { return &Delete{cfg: cfg} }

// Run deletes the object as the API server does (finalizers keep it until
// its controller removes them; owner references take its dependents), runs
// and reports on the object itself, which is gone, or Failed, or still
// waiting. A subinstallation is only marked, as on a cluster: only a root
// starts a job on its first deletion, so it waits for a job of its parent
// (whose next Init fails on it). An unknown kind or --without-uninstall on
// a kind without an uninstall is invalid input.
func (a *Delete) Run(ctx context.Context) (*Run, error) {
	single := ObjectName{Kind: a.Kind, Name: a.Name, Namespace: a.Namespace}
	return operateNamed(ctx, a.cfg, a.RunOptions, a.Objects, single, a.operation)
}

// operation is the deletion of the object n names.
func (a *Delete) operation(n ObjectName) (operation, error) {
	kind := "Installation"
	if n.Kind != "" {
		var ok bool
		if kind, ok = KindAliases[strings.ToLower(n.Kind)]; !ok {
			return operation{}, Invalidf("unknown kind %q (known: %s)", n.Kind, knownKinds())
		}
	}
	// The report is on the object itself: for a root installation that is
	// its root; a subinstallation is only marked, as on a cluster, and
	// waits for a job of its parent.
	op := operation{kind: kind, name: n.Name, namespace: n.Namespace, act: a.delete, self: true}
	switch kind {
	case "Installation", "Execution", "DeployItem":
	default:
		if a.WithoutUninstall {
			return operation{}, Invalidf("--without-uninstall applies to Installations, Executions and DeployItems, not to a %s", kind)
		}
	}
	return op, nil
}

// delete deletes the object, with the delete-without-uninstall annotation
// first when asked.
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
