package simcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A simulated cluster runs no containers: a Job (or a Pod that runs to
// completion) completes at once, whatever its containers would do. Many
// charts have a Job write a Secret that a workload then mounts, such as
// kube-webhook-certgen's certificate (ingress-nginx,
// kube-prometheus-stack): on a real cluster the workload becomes ready,
// on a simulated one it would wait for ever. So a Job that completes is
// taken to have written the Secrets and ConfigMaps its containers name by
// a flag or an environment variable that says so (--secret-name=X,
// --tls-secret-name X, CA_SECRET_NAME=X, --configmap-name=X), in its own
// namespace, as an empty object annotated with writtenByAnnotation; a pod
// that reads keys of it finds them (prereqs.go), as the container would
// have written them. An object that exists is left as it is. A Job (or
// Pod) also writes the Secrets and ConfigMaps its roles name
// (rbacwrites.go). So is a Deployment, StatefulSet or DaemonSet once
// its pods run (a ready replica): operators write their own webhook
// certificate, such as KEDA's (--cert-secret-name=kedaorg-certs), which
// the chart's other workloads mount.

// writtenByAnnotation marks a Secret or ConfigMap a completed Job of the
// simulated cluster is taken to have written, naming the Job (or Pod).
const writtenByAnnotation = "simcluster.lscli/written-by"

// jobWrites writes what obj, a Job or Pod whose status the fake controller
// has just written, is taken to write when it has completed, or a
// Deployment, StatefulSet or DaemonSet when one of its pods is ready.
func (c *Cluster) jobWrites(ctx context.Context, obj client.Object) error {
	var spec *corev1.PodSpec
	var kind string
	switch o := obj.(type) {
	case *batchv1.Job:
		if !jobComplete(o) {
			return nil
		}
		spec, kind = &o.Spec.Template.Spec, "Job"
	case *corev1.Pod:
		if o.Status.Phase != corev1.PodSucceeded {
			return nil
		}
		spec, kind = &o.Spec, "Pod"
	case *appsv1.Deployment:
		if o.Status.ReadyReplicas == 0 {
			return nil
		}
		spec, kind = &o.Spec.Template.Spec, "Deployment"
	case *appsv1.StatefulSet:
		if o.Status.ReadyReplicas == 0 {
			return nil
		}
		spec, kind = &o.Spec.Template.Spec, "StatefulSet"
	case *appsv1.DaemonSet:
		if o.Status.NumberReady == 0 {
			return nil
		}
		spec, kind = &o.Spec.Template.Spec, "DaemonSet"
	default:
		return nil
	}
	writes := namedWrites(spec)
	if kind == "Job" || kind == "Pod" {
		byRole, err := c.roleWrites(ctx, obj.GetNamespace(), spec) // rbacwrites.go
		if err != nil {
			return err
		}
		writes = appendNew(writes, byRole)
	}
	writer := kind + " " + obj.GetNamespace() + "/" + obj.GetName()
	if kind == "Job" || kind == "Pod" {
		if err := c.certgenWrites(ctx, writer, obj.GetNamespace(), spec); err != nil { // certgenwrites.go
			return err
		}
	}
	for _, w := range writes {
		if err := c.writeFor(ctx, writer, kind == "Job" || kind == "Pod", obj.GetNamespace(), w); err != nil {
			return err
		}
	}
	return nil
}

// appendNew appends to ws those of more it does not hold.
func appendNew(ws, more []namedWrite) []namedWrite {
	for _, m := range more {
		if !slices.Contains(ws, m) {
			ws = append(ws, m)
		}
	}
	return ws
}

// jobComplete reports whether j has the Complete condition.
func jobComplete(j *batchv1.Job) bool {
	for _, cond := range j.Status.Conditions {
		if cond.Type == batchv1.JobComplete && cond.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// namedWrite is a Secret or ConfigMap a container names as one it writes.
type namedWrite struct {
	secret bool
	name   string
}

// namedWrites are the Secrets and ConfigMaps the containers of spec name
// by flag (--x-secret-name=N, or N as the next argument) or literal
// environment variable (X_CONFIGMAP_NAME=N), in their order, each once.
func namedWrites(spec *corev1.PodSpec) []namedWrite {
	var out []namedWrite
	seen := map[namedWrite]bool{}
	add := func(key, value string) {
		w, ok := writeOf(key, value)
		if ok && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			args := append(append([]string{}, cs[i].Command...), cs[i].Args...)
			for j, a := range args {
				if !strings.HasPrefix(a, "-") {
					continue
				}
				flag, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
				if !hasValue && j+1 < len(args) && !strings.HasPrefix(args[j+1], "-") {
					value = args[j+1]
				}
				add(flag, value)
			}
			for _, e := range cs[i].Env {
				if e.ValueFrom == nil {
					add(e.Name, e.Value)
				}
			}
		}
	}
	return out
}

// writeOf reads a flag or variable named key with value as the name of a
// Secret or ConfigMap written: key ends in secret-name or configmap-name
// (config-map-name; any case, _ for -) and value is an object name, not a
// $(VAR) to expand.
func writeOf(key, value string) (namedWrite, bool) {
	k := strings.ReplaceAll(strings.ToLower(key), "_", "-")
	var w namedWrite
	switch {
	case strings.HasSuffix(k, "secret-name"):
		w.secret = true
	case strings.HasSuffix(k, "configmap-name"), strings.HasSuffix(k, "config-map-name"):
	default:
		return w, false
	}
	if len(validation.IsDNS1123Subdomain(value)) > 0 {
		return w, false
	}
	w.name = value
	return w, true
}

// writeFor creates w in namespace ns, unless it exists, as writer would
// have, and lets the cluster react to it as to any write (workloads that
// wait for it look again). ran tells a writer that ran to completion (a
// Job or Pod), whose readers start later (podstart.go).
func (c *Cluster) writeFor(ctx context.Context, writer string, ran bool, ns string, w namedWrite) error {
	meta := metav1.ObjectMeta{Namespace: ns, Name: w.name, Annotations: map[string]string{writtenByAnnotation: writer}}
	var obj client.Object
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	if w.secret {
		obj = &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeOpaque}
		gvk.Kind = "Secret"
	} else {
		obj = &corev1.ConfigMap{ObjectMeta: meta}
	}
	created, err := c.createAsController(ctx, gvk, obj)
	if err != nil {
		return fmt.Errorf("simulated cluster %s: %s writes %s %s/%s: %w", c.key, writer, gvk.Kind, ns, w.name, err)
	}
	if !created {
		return nil
	}
	if ran {
		c.noteRanWrite(gvk, ns, w.name)
	}
	return c.afterWrite(ctx, gvk, ns, w.name)
}

// createAsController creates obj, of kind gvk, as a controller or a
// container of the cluster writes it: not while its namespace is being
// deleted (the writer could not write it either), and not when it exists
// or its namespace does not. created tells whether it did; err is the
// store's error otherwise. The caller lets the cluster react to what it
// created (afterWrite).
func (c *Cluster) createAsController(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) (created bool, err error) {
	if c.forbidTerminating(ctx, gvk, obj.GetNamespace(), obj.GetName()) != nil {
		return false, nil
	}
	switch err := c.inner.Create(ctx, obj, client.FieldOwner(controllerManager)); {
	case apierrors.IsAlreadyExists(err), apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
