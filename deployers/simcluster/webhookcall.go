package simcluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"strconv"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A simulated cluster runs no webhook servers, so it cannot ask an
// admission webhook what it thinks of a request. What it can tell is
// whether kube-apiserver could reach the webhook at all: a webhook of a
// Service is called at the Service's cluster IP (kube-apiserver's default
// ClusterIP service resolver, k8s.io/apiserver pkg/util/proxy
// ResolveCluster), and kube-proxy refuses connections to a Service with
// no ready endpoint. So the call fails while the Service is missing, lacks
// the port or is headless (ResolveCluster's errors), or no ready pod is
// behind it (the webhook's Deployment still pulling its image, or not
// installed yet: "dial tcp CLUSTER-IP:PORT: connect: connection refused";
// a kube-apiserver with --enable-aggregator-routing says "no endpoints
// available for service" instead). A webhook whose failurePolicy is Fail
// (the v1 default) then refuses the request with an InternalError
// (webhook/validating and webhook/mutating dispatchers). MetalLB's
// IPAddressPools are refused this way until its controller serves the
// webhook. A webhook it can reach is taken to admit the request
// unchanged.

// admitByWebhooks refuses a write of the object ns/name of kind gvk, as
// kube-apiserver does when a matching admission webhook with failurePolicy
// Fail cannot be called: its Service is missing, does not have the port,
// or has no ready endpoint. what gives the operation (CREATE, UPDATE or
// DELETE) and the labels an objectSelector looks at, or ok false to leave
// the write to the store; it is called only when the cluster has such
// webhooks, so that a write where none are reads nothing more. The caller
// holds the lock.
func (c *Cluster) admitByWebhooks(ctx context.Context, gvk schema.GroupVersionKind, ns, name string,
	what func() (op admissionregistrationv1.OperationType, objLabels map[string]string, ok bool)) error {
	if gvk.Group == admissionregistrationv1.GroupName || c.own != nil {
		return nil // kube-apiserver sends no webhook configuration to a webhook
	}
	hooks, err := c.failingWebhooks(ctx)
	if err != nil || len(hooks) == 0 {
		return err
	}
	if _, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
		return nil // not served: the caller's kind check answers
	}
	op, objLabels, ok := what()
	if !ok {
		return nil
	}
	attr, nsLabels, ok := c.webhookRequest(ctx, gvk, ns, name, admission.Operation(op), objLabels)
	if !ok {
		return nil
	}
	for _, h := range hooks {
		if !h.matches(attr, nsLabels, objLabels) {
			continue
		}
		if reason := c.unreachable(ctx, h.service); reason != nil {
			// webhookutil.ErrCallingWebhook's words (k8s.io/apiserver
			// pkg/util/webhook, whose package would bring its REST
			// client's dependencies).
			return apierrors.NewInternalError(fmt.Errorf("failed calling webhook %q: failed to call webhook: %w",
				h.name, &url.Error{Op: "Post", URL: h.url(), Err: reason}))
		}
	}
	return nil
}

// webhookRequest is what kube-apiserver matches webhooks against for
// operation op on the object ns/name of kind gvk with labels objLabels:
// the request's attributes and the labels a namespaceSelector looks at
// (those of the object's namespace, or of a Namespace itself). ok is
// false for a kind the cluster does not serve.
func (c *Cluster) webhookRequest(ctx context.Context, gvk schema.GroupVersionKind, ns, name string,
	op admission.Operation, objLabels map[string]string) (attr admission.Attributes, nsLabels map[string]string, ok bool) {
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, nil, false
	}
	if !c.namespaced(gvk) {
		ns = ""
	}
	attr = admission.NewAttributesRecord(nil, nil, gvk, ns, name, m.Resource, "", op, nil, false, nil)
	if ns != "" {
		n := &corev1.Namespace{}
		if err := c.inner.Get(ctx, client.ObjectKey{Name: ns}, n); err == nil {
			nsLabels = n.Labels
		}
	} else if gvk.GroupKind() == (schema.GroupKind{Kind: "Namespace"}) {
		nsLabels = objLabels
	}
	return attr, nsLabels, true
}

// callableWebhook is what admitByWebhooks needs of a validating or
// mutating webhook with failurePolicy Fail and a Service.
type callableWebhook struct {
	name              string
	rules             []admissionregistrationv1.RuleWithOperations
	namespaceSelector *metav1.LabelSelector
	objectSelector    *metav1.LabelSelector
	service           admissionregistrationv1.ServiceReference
	timeoutSeconds    int32
}

// failingWebhooks are the webhooks of the cluster's mutating, then
// validating webhook configurations, by name, whose failurePolicy is Fail
// and whose client config names a Service (a URL webhook is outside the
// cluster: taken as reachable). A webhook with matchConditions, which
// kube-apiserver evaluates in CEL, is left out: lscli does not evaluate
// them.
func (c *Cluster) failingWebhooks(ctx context.Context) ([]callableWebhook, error) {
	var out []callableWebhook
	add := func(name string, failure *admissionregistrationv1.FailurePolicyType, conds int,
		rs []admissionregistrationv1.RuleWithOperations, nsSel, objSel *metav1.LabelSelector,
		cfg admissionregistrationv1.WebhookClientConfig, timeout *int32) {
		if failure != nil && *failure == admissionregistrationv1.Ignore || conds > 0 || cfg.Service == nil {
			return
		}
		h := callableWebhook{name: name, rules: rs, namespaceSelector: nsSel, objectSelector: objSel,
			service: *cfg.Service, timeoutSeconds: 10}
		if timeout != nil {
			h.timeoutSeconds = *timeout
		}
		out = append(out, h)
	}
	mutating := &admissionregistrationv1.MutatingWebhookConfigurationList{}
	if err := c.inner.List(ctx, mutating); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list mutating webhook configurations: %w", c.key, err)
	}
	for _, cfg := range mutating.Items {
		for _, w := range cfg.Webhooks {
			add(w.Name, w.FailurePolicy, len(w.MatchConditions), w.Rules, w.NamespaceSelector, w.ObjectSelector, w.ClientConfig, w.TimeoutSeconds)
		}
	}
	validating := &admissionregistrationv1.ValidatingWebhookConfigurationList{}
	if err := c.inner.List(ctx, validating); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list validating webhook configurations: %w", c.key, err)
	}
	for _, cfg := range validating.Items {
		for _, w := range cfg.Webhooks {
			add(w.Name, w.FailurePolicy, len(w.MatchConditions), w.Rules, w.NamespaceSelector, w.ObjectSelector, w.ClientConfig, w.TimeoutSeconds)
		}
	}
	return out, nil
}

// matches reports whether kube-apiserver calls h for attr: one of its
// rules matches exactly (matchPolicy Equivalent's conversion to another
// version is not followed), and its namespace selector (for a namespaced
// object or a Namespace) and object selector select. A selector that does
// not parse matches nothing, as kube-apiserver's validation would have
// refused it.
func (h callableWebhook) matches(attr admission.Attributes, nsLabels, objLabels map[string]string) bool {
	matched := false
	for _, r := range h.rules {
		if (&rules.Matcher{Rule: r, Attr: attr}).Matches() {
			matched = true
			break
		}
	}
	if !matched {
		return false
	}
	if attr.GetNamespace() != "" || attr.GetKind().GroupKind() == (schema.GroupKind{Kind: "Namespace"}) {
		if !selects(h.namespaceSelector, nsLabels) {
			return false
		}
	}
	return selects(h.objectSelector, objLabels)
}

// selects reports whether sel (nil: everything) selects set.
func selects(sel *metav1.LabelSelector, set map[string]string) bool {
	if sel == nil {
		return true
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false
	}
	return s.Matches(labels.Set(set))
}

// url is the address kube-apiserver posts the review to, as its error
// names it.
func (h callableWebhook) url() string {
	port := int32(443)
	if h.service.Port != nil {
		port = *h.service.Port
	}
	path := ""
	if h.service.Path != nil {
		path = *h.service.Path
	}
	host := net.JoinHostPort(h.service.Name+"."+h.service.Namespace+".svc", strconv.Itoa(int(port)))
	return "https://" + host + path + "?timeout=" + strconv.Itoa(int(h.timeoutSeconds)) + "s"
}

// unreachable is why kube-apiserver cannot call a webhook behind the
// Service ref, in ResolveCluster's words or the dialer's, or nil when a pod
// behind it is ready. A Service without a selector (its endpoints written
// by someone else) or of type ExternalName counts as reachable.
func (c *Cluster) unreachable(ctx context.Context, ref admissionregistrationv1.ServiceReference) error {
	svc := &corev1.Service{}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, svc); err != nil {
		if apierrors.IsNotFound(err) {
			return apierrors.NewNotFound(corev1.Resource("service"), ref.Name)
		}
		return err
	}
	port := int32(443)
	if ref.Port != nil {
		port = *ref.Port
	}
	switch {
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
		return nil
	case svc.Spec.ClusterIP == corev1.ClusterIPNone:
		return errors.New(`cannot route to service with ClusterIP "None"`)
	}
	found := false
	for _, p := range svc.Spec.Ports {
		found = found || p.Port == port
	}
	if !found {
		return apierrors.NewServiceUnavailable(fmt.Sprintf("no service port %d found for service %q", port, svc.Name))
	}
	if len(svc.Spec.Selector) == 0 {
		return nil
	}
	ready, err := c.readyBehind(ctx, svc)
	if err != nil || ready {
		return err
	}
	addr := net.JoinHostPort(svc.Spec.ClusterIP, strconv.Itoa(int(port)))
	return &net.OpError{Op: "dial", Net: "tcp", Addr: tcpAddr(addr), Err: connectionRefused{}}
}

// tcpAddr is a net.Addr of a host:port.
type tcpAddr string

func (a tcpAddr) Network() string { return "tcp" }
func (a tcpAddr) String() string  { return string(a) }

// connectionRefused is the dialer's error when kube-proxy rejects a
// connection to a Service without ready endpoints.
type connectionRefused struct{}

func (connectionRefused) Error() string { return "connect: connection refused" }

// readyBehind reports whether a ready pod of svc's namespace carries the
// labels svc selects: a pod of a Deployment, StatefulSet, DaemonSet,
// ReplicaSet or ReplicationController with a ready replica whose pod
// template the selector matches, or a ready Pod.
func (c *Cluster) readyBehind(ctx context.Context, svc *corev1.Service) (bool, error) {
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	lists := []client.ObjectList{&appsv1.DeploymentList{}, &appsv1.StatefulSetList{}, &appsv1.DaemonSetList{},
		&appsv1.ReplicaSetList{}, &corev1.ReplicationControllerList{}, &corev1.PodList{}}
	for _, list := range lists {
		if err := c.inner.List(ctx, list, client.InNamespace(svc.Namespace)); err != nil {
			return false, fmt.Errorf("simulated cluster %s: endpoints of service %s/%s: %w", c.key, svc.Namespace, svc.Name, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return false, err
		}
		for _, item := range items {
			if ready, podLabels := readyPods(item); ready && sel.Matches(labels.Set(podLabels)) {
				return true, nil
			}
		}
	}
	return false, nil
}

// readyPods reports whether obj, a workload or a Pod, has a ready pod, and
// the labels its pods carry.
func readyPods(obj runtime.Object) (ready bool, podLabels map[string]string) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return o.Status.ReadyReplicas > 0, o.Spec.Template.Labels
	case *appsv1.StatefulSet:
		return o.Status.ReadyReplicas > 0, o.Spec.Template.Labels
	case *appsv1.DaemonSet:
		return o.Status.NumberReady > 0, o.Spec.Template.Labels
	case *appsv1.ReplicaSet:
		return o.Status.ReadyReplicas > 0, o.Spec.Template.Labels
	case *corev1.ReplicationController:
		if o.Spec.Template == nil {
			return false, nil
		}
		return o.Status.ReadyReplicas > 0, o.Spec.Template.Labels
	case *corev1.Pod:
		return podReady(o), o.Labels
	}
	return false, nil
}

// podReady reports whether p has condition Ready True.
func podReady(p *corev1.Pod) bool {
	for _, cond := range p.Status.Conditions {
		if cond.Type == corev1.PodReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

// admitObject is admitByWebhooks for a create (op CREATE) or an update
// (UPDATE) of obj, which carries the labels the write stores.
func (c *Cluster) admitObject(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, op admissionregistrationv1.OperationType) error {
	return c.admitByWebhooks(ctx, gvk, obj.GetNamespace(), obj.GetName(),
		func() (admissionregistrationv1.OperationType, map[string]string, bool) {
			return op, obj.GetLabels(), true
		})
}

// admitWrite is admitByWebhooks for a patch or apply of obj: an UPDATE of
// the stored object, with its labels, or a CREATE when there is none.
func (c *Cluster) admitWrite(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) error {
	return c.admitByWebhooks(ctx, gvk, obj.GetNamespace(), obj.GetName(), func() (admissionregistrationv1.OperationType, map[string]string, bool) {
		stored, err := c.storedLabels(ctx, gvk, obj)
		switch {
		case apierrors.IsNotFound(err):
			return admissionregistrationv1.Create, obj.GetLabels(), true
		case err != nil:
			return "", nil, false // the write itself answers
		}
		maps.Copy(stored, obj.GetLabels())
		return admissionregistrationv1.Update, stored, true
	})
}

// admitDelete is admitByWebhooks for a deletion of obj, with the stored
// object's labels; one that is not stored is left to the delete.
func (c *Cluster) admitDelete(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) error {
	return c.admitByWebhooks(ctx, gvk, obj.GetNamespace(), obj.GetName(), func() (admissionregistrationv1.OperationType, map[string]string, bool) {
		stored, err := c.storedLabels(ctx, gvk, obj)
		return admissionregistrationv1.Delete, stored, err == nil
	})
}

// storedLabels reads the labels of the stored object obj names (a map,
// never nil, on success).
func (c *Cluster) storedLabels(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) (map[string]string, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	ns := obj.GetNamespace()
	if !c.namespaced(gvk) {
		ns = ""
	}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: obj.GetName()}, u); err != nil {
		return nil, err
	}
	out := map[string]string{}
	maps.Copy(out, u.GetLabels())
	return out, nil
}
