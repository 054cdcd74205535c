package action

import (
	"context"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// Trigger starts a new job at a root installation, or a stand-alone
// Execution or DeployItem (or retries its failed deletion), and runs to the
// end: `lscli trigger`.
type Trigger struct {
	cfg *Configuration
	// Kind is "installation" (the default when empty), "execution" or
	// "deployitem", as KindAliases spell them.
	Kind string
	// Name names the object.
	Name string
	// Namespace narrows the lookup; empty finds Name in any namespace.
	Namespace string
	// Objects, when set, are the objects to trigger together instead of
	// Kind, Name and Namespace: every one must exist and may be triggered,
	// and all get the annotation before the one run.
	Objects []ObjectName
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewTrigger returns the trigger action over cfg.
func NewTrigger(cfg *Configuration) *Trigger { return &Trigger{cfg: cfg} }

// Run puts the reconcile annotation on the object, runs and reports on it.
// A subinstallation, or an Execution or DeployItem that is controlled by
// another object, is invalid input: only their root starts their jobs.
func (a *Trigger) Run(ctx context.Context) (*Run, error) {
	single := ObjectName{Kind: a.Kind, Name: a.Name, Namespace: a.Namespace}
	return operateNamed(ctx, a.cfg, a.RunOptions, a.Objects, single, a.operation)
}

// operation is the reconcile annotation on the object n names.
func (a *Trigger) operation(n ObjectName) (operation, error) {
	kind := "Installation"
	if n.Kind != "" {
		kind = KindAliases[strings.ToLower(n.Kind)]
	}
	op := operation{kind: kind, name: n.Name, namespace: n.Namespace, act: setOperation(lsv1alpha1.ReconcileOperation)}
	switch kind {
	case "Installation":
		op.check = requireRoot("triggered")
	case "Execution", "DeployItem":
		op.check, op.self = requireStandalone, true
	default:
		return operation{}, Invalidf("cannot trigger %q: only installations, executions and deploy items have jobs", n.Kind)
	}
	return op, nil
}

// requireStandalone refuses an Execution or DeployItem that another object
// controls.
func requireStandalone(objs []fakecluster.Object, obj fakecluster.Object) error {
	ref := metav1.GetControllerOf(obj)
	if ref == nil {
		return nil
	}
	root := rootOf(objs, obj)
	return Invalidf("%s %q is controlled by %s %q: trigger its root, %s %q",
		obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), ref.Kind, ref.Name,
		root.GetObjectKind().GroupVersionKind().Kind, root.GetName())
}
