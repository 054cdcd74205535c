package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
)

// child is a subinstallation or the execution of an installation.
type child struct {
	obj    fakecluster.Object
	kind   string
	status flow.JobStatus
}

// children returns the subinstallations (owned by inst) and the execution of
// inst, found through the owner index, never by scanning.
func (c *Controller) children(ctx context.Context, inst *lsv1alpha1.Installation) ([]child, error) {
	var out []child
	subs := &lsv1alpha1.InstallationList{}
	opts := fakecluster.ListOptions{Namespace: inst.Namespace, OwnerUID: inst.UID}
	if err := c.cfg.Cluster.List(ctx, subs, opts); err != nil {
		return nil, fmt.Errorf("list subinstallations: %w", err)
	}
	for i := range subs.Items {
		s := &subs.Items[i]
		st, _ := flow.JobStatusOf(s)
		out = append(out, child{obj: s, kind: "Installation", status: st})
	}
	exec, err := c.execution(ctx, inst)
	if err != nil {
		return nil, err
	}
	if exec != nil {
		st, _ := flow.JobStatusOf(exec)
		out = append(out, child{obj: exec, kind: "Execution", status: st})
	}
	return out, nil
}

// execution returns the execution of inst, or nil if it has none.
func (c *Controller) execution(ctx context.Context, inst *lsv1alpha1.Installation) (*lsv1alpha1.Execution, error) {
	exec := &lsv1alpha1.Execution{}
	err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}, exec)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get execution: %w", err)
	}
	if !metav1.IsControlledBy(exec, inst) {
		return nil, nil
	}
	return exec, nil
}

// triggerChildren passes the job ID of inst to all its children at once.
func (c *Controller) triggerChildren(ctx context.Context, inst *lsv1alpha1.Installation) error {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return err
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	for _, k := range kids {
		if k.status.JobID == inst.Status.JobID {
			continue
		}
		flow.SetJobID(k.obj, inst.Status.JobID, now)
		if err := c.cfg.Cluster.UpdateStatus(ctx, k.obj); err != nil {
			return fmt.Errorf("pass job to %s %s: %w", k.kind, k.obj.GetName(), err)
		}
	}
	return nil
}
