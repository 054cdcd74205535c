package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// controllerManager is the field manager of the fake controllers' writes.
const controllerManager = "lscli-simcluster-controller"

// filler sets the status a controller would eventually write for obj: ready,
// or failed with message fail when fail is not empty.
type filler func(obj client.Object, fail string, now metav1.Time)

// fillers are the fake controllers, by kind. Other kinds get no status;
// kstatus counts them as ready when they exist.
var fillers = map[schema.GroupVersionKind]filler{
	{Group: "apps", Version: "v1", Kind: "Deployment"}:                               fillDeployment,
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}:                              fillStatefulSet,
	{Group: "apps", Version: "v1", Kind: "DaemonSet"}:                                fillDaemonSet,
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"}:                               fillReplicaSet,
	{Version: "v1", Kind: "ReplicationController"}:                                   fillReplicationController,
	{Version: "v1", Kind: "Pod"}:                                                     fillPod,
	{Group: "batch", Version: "v1", Kind: "Job"}:                                     fillJob,
	{Version: "v1", Kind: "PersistentVolumeClaim"}:                                   fillPVC,
	{Version: "v1", Kind: "Service"}:                                                 fillService,
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}: fillCRD,
}

// ControlledKinds are the kinds whose status a fake controller fills in,
// in the order of the documentation; a simulated cluster leaves the status
// of every other kind as it was written.
func ControlledKinds() []string {
	return []string{"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController",
		"Pod", "Job", "PersistentVolumeClaim", "Service", "CustomResourceDefinition"}
}

// HasController reports whether a fake controller fills in the status of
// objects of kind (any group).
func HasController(kind string) bool {
	for gvk := range fillers {
		if gvk.Kind == kind {
			return true
		}
	}
	return false
}

// control runs the fake controller of ref's kind once: if the object's
// status is not what the controller wants, the controller writes it, unless
// a rule makes it hang or wait (then the write is due later).
func (c *Cluster) control(ctx context.Context, ref objectRef) error {
	fill := fillers[ref.gvk]
	if fill == nil {
		return nil
	}
	obj, err := c.getTyped(ctx, ref)
	if apierrors.IsNotFound(err) {
		delete(c.pending, ref)
		return nil
	}
	if err != nil {
		return err
	}
	if s, ok := obj.(*appsv1.StatefulSet); ok {
		if err := c.statefulSetClaims(ctx, s); err != nil { // claimtemplates.go
			return err
		}
	}
	rule := c.set.opts.Rules.find(objectInfo{target: c.key, gvk: ref.gvk, namespace: ref.namespace,
		name: ref.name, labels: obj.GetLabels()})
	now := metav1.NewTime(c.set.opts.Now())
	want := obj.DeepCopyObject().(client.Object)
	var fail string
	if rule != nil {
		fail = rule.Fail
	}
	fill(want, fail, now)
	if (rule != nil && rule.Hang) || (sameStatus(obj, want) && !bindIncomplete(obj, fail)) {
		delete(c.pending, ref)
		if ref.gvk == pvcGVK {
			delete(c.waiting, ref) // no consumer binds it now (awaitConsumer)
		}
		return c.expireJob(ctx, ref) // a finished Job's TTL (ttl.go)
	}
	if waiting, err := c.awaitConsumer(ctx, ref, obj); waiting || err != nil {
		return err // a claim that binds on its first consumer has none
	}
	if waiting, err := c.awaitPrereqs(ctx, ref, obj, now); waiting || err != nil {
		return err // the pods miss an object (prereqs.go)
	}
	if rule != nil && rule.Duration > 0 {
		p, ok := c.pending[ref]
		if !ok || p.uid != string(obj.GetUID()) || p.generation != obj.GetGeneration() {
			p = pendingFill{due: now.Add(rule.Duration), uid: string(obj.GetUID()), generation: obj.GetGeneration()}
			c.pending[ref] = p
		}
		if now.Time.Before(p.due) {
			return nil
		}
	}
	if pvc, ok := obj.(*corev1.PersistentVolumeClaim); ok && fail == "" {
		bound, ok, err := c.bindVolume(ctx, pvc) // volumes.go
		if err != nil {
			return err
		}
		if !ok { // the volume it names is not there (yet)
			c.waiting[ref] = struct{}{}
			return nil
		}
		want = bound.DeepCopy()
		fill(want, fail, now)
	}
	delete(c.pending, ref)
	if err := c.inner.Status().Update(ctx, want, client.FieldOwner(controllerManager)); err != nil {
		return fmt.Errorf("simulated cluster %s: fake controller: update status of %s %s: %w", c.key, ref.gvk.Kind, ref.name, err)
	}
	if ref.gvk.GroupKind() == crdGroupKind {
		return c.refreshCRD(ctx, ref.name) // an established CRD serves its kinds
	}
	c.noteFinished(ref, want)
	if err := c.jobWrites(ctx, want); err != nil { // a completed Job's or running workload's containers wrote (jobwrites.go)
		return err
	}
	if err := c.certManagerWritten(ctx, ref.gvk, ref.namespace, ref.name); err != nil { // cert-manager's controller runs (certmanagerissue.go)
		return err
	}
	return c.expireJob(ctx, ref)
}

// getTyped reads the object ref names as its Go type.
func (c *Cluster) getTyped(ctx context.Context, ref objectRef) (client.Object, error) {
	ro, err := newBuiltin(ref.gvk)
	if err != nil {
		return nil, err
	}
	obj := ro.(client.Object)
	return obj, c.inner.Get(ctx, client.ObjectKey{Namespace: ref.namespace, Name: ref.name}, obj)
}

// settle does the status fills that are due at the current virtual time, in
// a fixed order, then the deletions of the Jobs whose TTL has expired and
// the garbage collection of the dependents of deleted objects.
func (c *Cluster) settle(ctx context.Context) error {
	now := c.set.opts.Now()
	var due, expired []objectRef
	for ref, p := range c.pending {
		if !now.Before(p.due) {
			due = append(due, ref)
		}
	}
	for ref, t := range c.expiring {
		if !now.Before(t) {
			expired = append(expired, ref)
		}
	}
	sort.Slice(due, func(i, j int) bool { return refKey(due[i]) < refKey(due[j]) })
	sort.Slice(expired, func(i, j int) bool { return refKey(expired[i]) < refKey(expired[j]) })
	for _, ref := range due {
		if err := c.settleOne(ctx, ref); err != nil {
			return err
		}
	}
	for _, ref := range expired {
		if err := c.expireJob(ctx, ref); err != nil {
			return err
		}
	}
	if len(c.gc) == 0 {
		return nil
	}
	return c.collectGarbage(ctx)
}

func refKey(r objectRef) string {
	return r.gvk.String() + "\x00" + r.namespace + "\x00" + r.name
}

// sameStatus compares the status of a and b, ignoring times.
func sameStatus(a, b client.Object) bool {
	sa, errA := statusJSON(a)
	sb, errB := statusJSON(b)
	return errA == nil && errB == nil && sa == sb
}

// timeFields are status fields that hold when something happened.
var timeFields = map[string]bool{"lastTransitionTime": true, "lastUpdateTime": true, "lastProbeTime": true,
	"lastHeartbeatTime": true, "startTime": true, "completionTime": true, "startedAt": true}

// statusJSON is the status of obj as JSON without the time fields. Of a
// typed object only the status is encoded: encoding the whole object
// (metadata with its managed fields, spec) and decoding it again was most
// of the cost of the comparison at every controlled write.
func statusJSON(obj client.Object) (string, error) {
	var status any
	if v, ok := typedStatus(obj); ok {
		data, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(data, &status); err != nil {
			return "", err
		}
	} else {
		data, err := json.Marshal(obj)
		if err != nil {
			return "", err
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return "", err
		}
		status = m["status"]
	}
	out, err := json.Marshal(dropTimes(status))
	return string(out), err
}

// typedStatus is the field of a typed object (a pointer to a struct)
// that JSON encodes as "status", when that field is a struct, which
// encoding/json writes whatever its tag's options.
func typedStatus(obj client.Object) (any, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	f, ok := v.Elem().Type().FieldByName("Status")
	if !ok || f.Type.Kind() != reflect.Struct || len(f.Index) != 1 {
		return nil, false
	}
	if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "status" {
		return nil, false
	}
	return v.Elem().Field(f.Index[0]).Interface(), true
}

func dropTimes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if timeFields[k] {
				delete(v, k)
				continue
			}
			v[k] = dropTimes(x)
		}
	case []any:
		for i := range v {
			v[i] = dropTimes(v[i])
		}
	}
	return v
}
