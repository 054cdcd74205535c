package simcluster

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MutatingWebhook is a webhook of a MutatingWebhookConfiguration (see
// MutatingWebhooks).
type MutatingWebhook struct {
	// Configuration is the MutatingWebhookConfiguration's name, Name the
	// webhook's.
	Configuration, Name string
}

// MutatingWebhooks returns the webhooks of the MutatingWebhookConfigurations
// of the simulated cluster behind target that kube-apiserver would call
// for an update of the object ns/name of kind gvk as it is stored (its
// rules, namespace and object selectors), whatever their failurePolicy, in
// the order of the configurations' names. A real webhook server may set
// fields of the object on every such write; a simulated cluster calls
// none (webhookcall.go), so hints use this to say where a field that only
// a real cluster has comes from. Webhooks with matchConditions count as
// matching (lscli does not evaluate CEL). None for a kind the cluster does
// not serve.
func (cs *Clusters) MutatingWebhooks(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) ([]MutatingWebhook, error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return nil, err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	list := &admissionregistrationv1.MutatingWebhookConfigurationList{}
	if err := c.inner.List(ctx, list); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list mutating webhook configurations: %w", c.key, err)
	}
	if len(list.Items) == 0 {
		return nil, nil
	}
	if !c.namespaced(gvk) {
		ns = ""
	}
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(gvk)
	var objLabels map[string]string
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj); err == nil {
		objLabels = obj.GetLabels()
	}
	attr, nsLabels, ok := c.webhookRequest(ctx, gvk, ns, name, admission.Update, objLabels) // webhookcall.go
	if !ok {
		return nil, nil // not served
	}
	var out []MutatingWebhook
	for _, cfg := range list.Items {
		for _, w := range cfg.Webhooks {
			h := callableWebhook{name: w.Name, rules: w.Rules, namespaceSelector: w.NamespaceSelector, objectSelector: w.ObjectSelector}
			if h.matches(attr, nsLabels, objLabels) {
				out = append(out, MutatingWebhook{Configuration: cfg.Name, Name: w.Name})
			}
		}
	}
	return out, nil
}
