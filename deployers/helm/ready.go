package helm

import (
	"context"
	"fmt"
	"net/http"
	"regexp"

	"helm.sh/helm/v3/pkg/kube"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// waitRetries is how often in a row helm's waiter takes a retryable error
// of one object's readiness check before it gives up (waitForResources).
const waitRetries = 30

// readyChecker returns helm's own readiness checker (kube.ReadyChecker, as
// helm's kube client builds it for Wait: paused Deployments count as
// ready; Jobs only with jobs) over a clientset of c. A real cluster's
// client gives its REST config; a simulated one is read through
// readTransport, with the ReplicaSets its Deployments would have (see
// addReplicaSets).
func readyChecker(ctx context.Context, c client.Client, log func(string, ...any), jobs bool) (kube.ReadyChecker, error) {
	cs, err := kubernetes.NewForConfig(readConfig(ctx, c, true))
	if err != nil {
		return kube.ReadyChecker{}, fmt.Errorf("clientset for helm's readiness checks: %w", err)
	}
	return kube.NewReadyChecker(cs, log, kube.PausedAsReady(true), kube.CheckJobs(jobs)), nil
}

// waitLook is one round of helm's waiter (kube waiter.waitForResources):
// the objects are checked in order until one is not ready. An error helm
// retries (one without an API status, or a 429 or 5xx status) counts as
// not ready, up to waitRetries times in a row for the same object (errs
// counts them between rounds); any other error ends the wait with it.
func waitLook(ctx context.Context, checker kube.ReadyChecker, resources kube.ResourceList, errs []int, log func(string, ...any)) (bool, error) {
	for i, v := range resources {
		ready, err := checker.IsReady(ctx, v)
		if retryableWaitError(err, v, log) {
			errs[i]++
			if errs[i] > waitRetries {
				log("Max number of retries reached")
				return false, err
			}
			log("Retrying as current number of retries %d less than max number of retries %d", errs[i]-1, waitRetries)
			return false, nil
		}
		errs[i] = 0
		if !ready {
			return false, err
		}
	}
	return true, nil
}

// retryableWaitError reports whether helm's waiter retries err
// (waiter.isRetryableError), logging as it does.
func retryableWaitError(err error, v *resource.Info, log func(string, ...any)) bool {
	if err == nil {
		return false
	}
	// helm prints the resource.Info itself as the details, pointers and
	// all; lscli names the object, so that the line is the same each run.
	log("Error received when checking status of resource %s. Error: '%s', Resource details: '%s'", v.Name, err, describe(v))
	if s, ok := err.(*apierrors.StatusError); ok {
		code := s.Status().Code
		retryable := code == 0 || code == http.StatusTooManyRequests || (code >= 500 && code != http.StatusNotImplemented)
		log("Status code received: %d. Retryable error? %t", code, retryable)
		return retryable
	}
	log("Retryable error? %t", true)
	return true
}

// addReplicaSets adds to l the ReplicaSets of the Deployments in namespace
// that kube-controller-manager would have made and that sel selects.
//
// A simulated cluster runs no workloads, so a Deployment has no
// ReplicaSets, which helm's check of a Deployment reads
// (deploymentutil.GetNewReplicaSet). So for each Deployment in the
// namespace that the fake controller has seen (status.observedGeneration
// is the generation) and that owns no ReplicaSet, the list gets the new
// ReplicaSet kube-controller-manager would have made: controlled by the
// Deployment, with its pod template and selector, and as many ready
// replicas as the Deployment's status says. A Deployment the controller
// has not seen (a rule's duration or hang) has none, as on a cluster
// whose controller has not got to it yet.
func (t *readTransport) addReplicaSets(l *unstructured.UnstructuredList, namespace string, sel labels.Selector) error {
	owned := map[string]bool{}
	for _, rs := range l.Items {
		if ref := metav1.GetControllerOfNoCopy(&rs); ref != nil {
			owned[string(ref.UID)] = true
		}
	}
	deps := &appsv1.DeploymentList{}
	var opts []client.ListOption
	if namespace != "" {
		opts = append(opts, client.InNamespace(namespace))
	}
	if err := t.c.List(t.ctx, deps, opts...); err != nil {
		return err
	}
	for i := range deps.Items {
		d := &deps.Items[i]
		if owned[string(d.UID)] || d.Status.ObservedGeneration != d.Generation || d.Generation == 0 {
			continue
		}
		rs := newReplicaSet(d)
		if !sel.Matches(labels.Set(rs.Labels)) {
			continue
		}
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(rs)
		if err != nil {
			return fmt.Errorf("encode the ReplicaSet of Deployment %s: %w", objectName(d), err)
		}
		l.Items = append(l.Items, unstructured.Unstructured{Object: obj})
	}
	return nil
}

// replicaSetName reads the new ReplicaSet's name from the message of a
// Deployment's Progressing condition, as the deployment controller writes
// it (`ReplicaSet "NAME" has ...`).
var replicaSetName = regexp.MustCompile(`^ReplicaSet "([^"]+)"`)

// newReplicaSet is the new ReplicaSet of d as kube-controller-manager
// keeps it (see addReplicaSets): ready replicas as d's status says.
func newReplicaSet(d *appsv1.Deployment) *appsv1.ReplicaSet {
	name := d.Name
	for _, c := range d.Status.Conditions {
		if m := replicaSetName.FindStringSubmatch(c.Message); c.Type == appsv1.DeploymentProgressing && m != nil {
			name = m[1]
		}
	}
	tpl := d.Spec.Template.DeepCopy()
	rs := &appsv1.ReplicaSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: d.Namespace, Labels: tpl.Labels, Generation: 1,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
		Spec: appsv1.ReplicaSetSpec{Replicas: d.Spec.Replicas, Selector: d.Spec.Selector, Template: *tpl},
		Status: appsv1.ReplicaSetStatus{ObservedGeneration: 1, Replicas: d.Status.Replicas,
			ReadyReplicas: d.Status.ReadyReplicas, AvailableReplicas: d.Status.AvailableReplicas},
	}
	return rs
}
