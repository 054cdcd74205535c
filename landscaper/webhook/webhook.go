// Package webhook holds the checks of Landscaper's validating webhooks that
// compare an object with the version the API server has stored, so that
// they can only run when an object is updated. The checks of a single
// object, run on every create and update, are the loader's (package
// landscape) and the renderer's (package landscaper/dataflow).
//
// Landscaper's webhooks server (cmd/landscaper-webhooks-server) registers
// its webhooks for create and update of installations, executions, deploy
// items and targets, with an object selector that leaves out objects
// labelled validation.landscaper.gardener.cloud/skip-validation=true. On an
// update kube-apiserver calls a webhook when the old or the new object
// matches that selector.
package webhook

import (
	"fmt"
	"net/http"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/fakecluster"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Register adds to c the checks of Landscaper's webhooks that its API
// server calls on an update (see fakecluster.Cluster.AddUpdateCheck):
// DeployItemUpdate.
func Register(c *fakecluster.Cluster) {
	c.AddUpdateCheck(lsv1alpha1.SchemeGroupVersion.WithKind("DeployItem").GroupKind(), func(stored, updated fakecluster.Object) error {
		return DeployItemUpdate(stored.(*lsv1alpha1.DeployItem), updated.(*lsv1alpha1.DeployItem))
	})
}

// SkipValidationLabel is the label that keeps an object from Landscaper's
// validating webhooks when its value is "true".
const SkipValidationLabel = "validation.landscaper.gardener.cloud/skip-validation"

// DeployItemsWebhook is the name of Landscaper's validating webhook for
// deploy items, as kube-apiserver names it in a refusal.
const DeployItemsWebhook = "deployitems.validation.landscaper.gardener.cloud"

// DeployItemUpdate returns the error the API server returns when
// Landscaper's deploy item webhook refuses the update of old to updated, or
// nil when it allows it: a deploy item's spec.type cannot change (its
// deployer would otherwise leave what the old type deployed behind). The
// error is a Forbidden status error with kube-apiserver's message:
//
//	admission webhook "deployitems.validation.landscaper.gardener.cloud" denied the request: .spec.type: Forbidden: type is immutable
func DeployItemUpdate(old, updated *lsv1alpha1.DeployItem) error {
	if skipped(old.Labels) && skipped(updated.Labels) {
		return nil
	}
	if old.Spec.Type == updated.Spec.Type {
		return nil
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusForbidden,
		Message: fmt.Sprintf("admission webhook %q denied the request: %s", DeployItemsWebhook, TypeImmutable),
	}}
}

// TypeImmutable is the webhook's reason for refusing a deploy item whose
// type changes, a Forbidden field error of the path Landscaper writes.
const TypeImmutable = ".spec.type: Forbidden: type is immutable"

// skipped reports whether labels keep an object from the webhooks.
func skipped(labels map[string]string) bool {
	return labels[SkipValidationLabel] == "true"
}
