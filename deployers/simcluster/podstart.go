package simcluster

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A simulated Job (or Pod that runs to completion) finishes in the instant
// it is created, and what its containers are taken to write (jobwrites.go,
// certgenwrites.go) is there in that instant. On a real cluster the Job
// runs for seconds, and the pods that mount or read what it writes start
// only after it has finished: the kubelet mounts a Secret that was missing
// at its next retry, then starts the containers and their probes. In that
// time kube-controller-manager's TTL-after-finished controller deletes a
// Job with ttlSecondsAfterFinished 0 (ttl.go), so a readiness check that
// needs every applied object to exist (Landscaper's manifest deployer,
// FailOnMissingObject) sees the workload ready only when the Job is gone.
//
// So the fake controller starts the pods of a workload that use a Secret or
// ConfigMap a completed Job or Pod wrote in this process podStartDelay
// after it was written: until then the workload keeps the status it has
// (waiting for the object, or none yet), and the start is a status fill
// due then (pending, a wake-up of the cluster). A rule's duration counts
// from the start. Only the start of pods waits: a workload that already
// runs is not looked at, and a restored cluster has forgotten what was
// written when (the fill stays due at its time).

// podStartDelay is how long after a Job or Pod wrote an object the pods
// that use it start.
const podStartDelay = 5 * time.Second

// noteRanWrite remembers that a Job or Pod that ran to completion has just
// created the Secret or ConfigMap ns/name of kind gvk.
func (c *Cluster) noteRanWrite(gvk schema.GroupVersionKind, ns, name string) {
	c.ranWrites[objectRef{gvk: gvk, namespace: ns, name: name}] = c.set.opts.Now()
}

// awaitPodStart reports whether the pods of obj (ref), whose spec names
// every object they need, have yet to start because a Job or Pod wrote one
// of those objects less than podStartDelay ago; then the start is due
// (pending). Once the start is due it forgets the fill, so that a rule's
// duration counts from there.
func (c *Cluster) awaitPodStart(ref objectRef, obj client.Object, spec *corev1.PodSpec) bool {
	if len(c.ranWrites) == 0 {
		return false
	}
	var written time.Time
	for _, u := range podUses(spec) {
		gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
		if u.secret {
			gvk.Kind = "Secret"
		}
		if at, ok := c.ranWrites[objectRef{gvk: gvk, namespace: ref.namespace, name: u.name}]; ok && at.After(written) {
			written = at
		}
	}
	if written.IsZero() {
		return false
	}
	start := written.Add(podStartDelay)
	if !c.set.opts.Now().Before(start) {
		if p, ok := c.pending[ref]; ok && p.due.Equal(start) {
			delete(c.pending, ref)
		}
		return false
	}
	c.pending[ref] = pendingFill{due: start, uid: string(obj.GetUID()), generation: obj.GetGeneration()}
	return true
}

// podUses are the Secrets and ConfigMaps the pods of spec mount or read.
func podUses(spec *corev1.PodSpec) []objectUse {
	var uses []objectUse
	for _, v := range spec.Volumes {
		uses = append(uses, volumeUses(v)...)
	}
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			uses = append(uses, containerUses(&cs[i])...)
		}
	}
	return uses
}
