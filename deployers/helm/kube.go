package helm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/kube"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/realcluster"
)

// fieldManager is the server-side apply field manager of helm releases.
const fieldManager = "helm"

// kubeClient is helm's kube.Interface over a controller-runtime client, so
// that helm's install, upgrade and uninstall actions run unchanged against
// the simulated cluster behind a Target as well as a real one.
//
// Objects are written with server-side apply (field manager "helm", forced),
// so an upgrade removes the fields a chart no longer sets, as helm's
// three-way merge does; with force, objects that exist are replaced (an
// update of the whole object), as helm's kube client replaces them. Wait
// waits as helm's does (helm's readiness checker for workloads; CRDs until
// served, see wait), WaitForDelete until deleted objects are gone, and
// hook Jobs are waited for until they complete or fail (see
// WatchUntilReady and hookRun).
type kubeClient struct {
	ctx context.Context
	c   client.Client
	// namespace is the release namespace, the default of namespaced objects.
	namespace string
	// real is true for a real cluster, where Wait polls in real time. A
	// simulated cluster only changes when the virtual clock moves, which it
	// never does during a call: there Wait looks once and fails the attempt,
	// and the deployer framework retries it on the virtual clock.
	real bool
	// log receives the lines helm's own kube client logs at the same
	// places (helmLog); nil logs nothing.
	log *helmLog
	// hooks is the action's hook state (see hookRun); nil for none.
	hooks *hookRun
	// crdsServed, if set, is called when Wait saw CRDs served: helm's
	// install waits so for the CRDs of the chart's crds/ folder before it
	// renders the templates (see releaser.readAPIVersions).
	crdsServed func()
	// rollingBack, if set, reports whether the action is rolling the
	// release back (an atomic upgrade that failed): its wait does not
	// pause (see wait).
	rollingBack func() bool
	// chartCRDs are the CRD files of the chart being installed or
	// upgraded, which a hook Job may be taken to apply (hookcrds.go).
	chartCRDs []chart.CRD
}

// kubeClient is all of helm's kube client interfaces, also the one helm
// asserts without checking when it adopts objects.
var _ kube.InterfaceThreeWayMerge = (*kubeClient)(nil)

var (
	_ kube.Interface                    = (*kubeClient)(nil)
	_ kube.InterfaceDeletionPropagation = (*kubeClient)(nil)
	_ kube.InterfaceExt                 = (*kubeClient)(nil)
)

// IsReachable is always true: the client for the Target exists.
func (k *kubeClient) IsReachable() error { return nil }

// Build decodes a multi-document manifest into resource infos. Namespaced
// objects without a namespace get the release namespace; Lists are expanded.
// A kind the cluster does not serve is an error, as with helm: helm's
// builder goes on after it (ContinueOnError) and reports every object it
// could not map, aggregated as apimachinery's utilerrors ("[a, b]").
func (k *kubeClient) Build(r io.Reader, _ bool) (kube.ResourceList, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	var list kube.ResourceList
	var errs []error
	for {
		// A map, not an Unstructured, whose decoding would ask for a kind
		// before info says so in cli-runtime's words.
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("decode manifest: %w", err)
		}
		objs, err := expandList(&unstructured.Unstructured{Object: doc})
		if err != nil {
			return nil, err
		}
		for _, obj := range objs {
			info, err := k.info(obj)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			list.Append(info)
		}
	}
	if len(errs) > 0 {
		return nil, utilerrors.NewAggregate(errs)
	}
	return list, nil
}

// expandList returns the items of a List, u itself otherwise, and nothing
// for an empty document.
func expandList(u *unstructured.Unstructured) ([]*unstructured.Unstructured, error) {
	if len(u.Object) == 0 {
		return nil, nil
	}
	if !u.IsList() {
		return []*unstructured.Unstructured{u}, nil
	}
	l, err := u.ToList()
	if err != nil {
		return nil, fmt.Errorf("expand %s: %w", u.GetKind(), err)
	}
	out := make([]*unstructured.Unstructured, 0, len(l.Items))
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out, nil
}

// info maps u to its resource and scope and gives it a read-only REST client.
// A document without kind fails as cli-runtime's decoder fails it. One
// without apiVersion is mapped by its kind alone, to the preferred version
// of the core group, as cli-runtime's builder maps it (its decoder does not
// ask for apiVersion); kube-apiserver then takes the group and version of
// the request's path for the object helm posts there, so u gets the
// mapping's apiVersion, as the stored object has it.
func (k *kubeClient) info(u *unstructured.Unstructured) (*resource.Info, error) {
	gvk := u.GroupVersionKind()
	if gvk.Kind == "" {
		raw, _ := json.Marshal(u.Object)
		return nil, fmt.Errorf("unable to decode %q: %w", "", runtime.NewMissingKindErr(string(raw)))
	}
	var versions []string
	if gvk.Version != "" {
		versions = append(versions, gvk.Version)
	}
	m, err := k.c.RESTMapper().RESTMapping(gvk.GroupKind(), versions...)
	if err == nil && u.GetAPIVersion() == "" {
		u.SetAPIVersion(m.GroupVersionKind.GroupVersion().String())
	}
	if err != nil {
		// helm's Build reads the manifest through cli-runtime's resource
		// builder from a stream whose source is "" (k8s.io/cli-runtime
		// pkg/resource/mapper.go infoForData), and says so in its words.
		var noKind *meta.NoKindMatchError
		if errors.As(err, &noKind) {
			return nil, fmt.Errorf("resource mapping not found for name: %q namespace: %q from %q: %w\nensure CRDs are installed first",
				u.GetName(), u.GetNamespace(), "", err)
		}
		return nil, fmt.Errorf("unable to recognize %q: %v", "", err)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if u.GetNamespace() == "" {
			u.SetNamespace(k.namespace)
		}
	} else {
		u.SetNamespace("")
	}
	rc, err := newGetClient(k.ctx, k.c, m, client.ObjectKeyFromObject(u))
	if err != nil {
		return nil, err
	}
	return &resource.Info{Client: rc, Mapping: m, Namespace: u.GetNamespace(), Name: u.GetName(), Object: u}, nil
}

// Create creates every resource, as helm's kube client does: the API
// server's refusals of all of them (an existing one is AlreadyExists) are
// collected in a multierror ("1 error occurred: ..."), and the others are
// created all the same.
func (k *kubeClient) Create(resources kube.ResourceList) (*kube.Result, error) {
	if k.hooks.isPaused() {
		return &kube.Result{Created: resources}, nil
	}
	k.log.printf("creating %d resource(s)", len(resources))
	var refused error
	for _, info := range resources {
		u, err := asUnstructured(info)
		if err != nil {
			return nil, err
		}
		live := &unstructured.Unstructured{}
		live.SetGroupVersionKind(u.GroupVersionKind())
		err = k.c.Get(k.ctx, client.ObjectKeyFromObject(u), live)
		if k.hooks.skipCreate(info, func() bool { return err == nil }) {
			continue
		}
		if err == nil {
			refused = multierror.Append(refused, apierrors.NewAlreadyExists(info.Mapping.Resource.GroupResource(), info.Name))
			continue
		}
		if !apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("get %s: %w", describe(info), err)
		}
		if err := k.applyOrCreate(u); err != nil { // untypable.go
			refused = multierror.Append(refused, createError(err))
		}
	}
	if refused != nil {
		return nil, refused
	}
	return &kube.Result{Created: resources}, nil
}

// createError is the API server's refusal of a create as helm's kube
// client collects it: the server's error itself, without lscli's words.
func createError(err error) error {
	var status *apierrors.StatusError
	if errors.As(err, &status) {
		return status
	}
	return err
}

// Update writes target and deletes what original has and target has not,
// unless the live object carries helm's resource-policy keep annotation.
// An object that does not exist is created. One that exists is applied
// (see kubeClient), or, with force, replaced as helm's kube client does
// (see replace): then what other field managers set is gone, and helm
// logs "Replaced" for it, changed or not. As helm's kube client, Update
// goes on past an object it cannot patch or replace (the errors are
// joined with " && " at the end), but stops at the first object it cannot
// look up or create: the objects after it are not written, and the one
// refused counts as created (helm.sh/helm/v3 pkg/kube client.go update,
// whose ResourceList.Visit returns at the first error).
func (k *kubeClient) Update(original, target kube.ResourceList, force bool) (*kube.Result, error) {
	if k.hooks.isPaused() {
		return &kube.Result{Updated: target}, nil
	}
	res := &kube.Result{}
	var errs []string
	k.log.printf("checking %d resources for changes", len(target))
	for _, info := range target {
		created, changed, err := k.writeInfo(info, original.Get(info), force)
		var lookup *lookupError
		switch {
		case errors.As(err, &lookup):
			return res, err
		case err != nil && created:
			res.Created = append(res.Created, info)
			return res, fmt.Errorf("failed to create resource: %w", createError(err))
		case err != nil:
			err = updateError(info, force, err)
			if !force && strings.HasPrefix(err.Error(), "cannot patch ") {
				// helm logs the patch it sends before the server refuses it.
				k.log.printf("Patch %s %q in namespace %s", info.Mapping.GroupVersionKind.Kind, info.Name, info.Namespace)
			}
			k.log.printf("error updating the resource %q:\n\t %v", info.Name, err)
			errs = append(errs, err.Error())
			continue
		}
		kind := info.Mapping.GroupVersionKind.Kind
		switch {
		case created:
			k.log.printf("Created a new %s called %q in %s\n", kind, info.Name, info.Namespace)
			res.Created = append(res.Created, info)
			continue
		case force:
			k.log.printf("Replaced %q with kind %s for kind %s", info.Name, kind, kind)
		case changed:
			k.log.printf("Patch %s %q in namespace %s", kind, info.Name, info.Namespace)
		default:
			k.log.printf("Looks like there are no changes for %s %q", kind, info.Name)
		}
		res.Updated = append(res.Updated, info)
	}
	if len(errs) > 0 {
		return res, errors.New(strings.Join(errs, " && "))
	}
	for _, info := range original.Difference(target) {
		deleted, err := k.deleteUnlessKept(info)
		if err != nil {
			return res, err
		}
		if deleted {
			res.Deleted = append(res.Deleted, info)
		}
	}
	return res, nil
}

// UpdateThreeWayMerge is Update: helm calls it to adopt objects that exist
// (install.takeOwnership); server-side apply takes them over anyway, and
// force replaces them as in Update.
func (k *kubeClient) UpdateThreeWayMerge(original, target kube.ResourceList, force bool) (*kube.Result, error) {
	return k.Update(original, target, force)
}

// updateError words the API server's refusal of an Update's write of
// info, an object that exists, as helm's kube client does: "failed to
// replace object" under force, else `cannot patch "NAME" with kind KIND`
// (helm patches what exists). A refused create is Update's.
func updateError(info *resource.Info, force bool, err error) error {
	var status *apierrors.StatusError
	if !errors.As(err, &status) {
		return err
	}
	if force {
		return fmt.Errorf("failed to replace object: %w", status)
	}
	return fmt.Errorf("cannot patch %q with kind %s: %w", info.Name, info.Mapping.GroupVersionKind.Kind, status)
}

// lookupError is a failed get of an object Update is to write, in helm's
// kube client's words; Update stops there.
type lookupError struct{ err error }

// Error is helm's wording of the failed get.
func (e *lookupError) Error() string {
	return "could not get information about the resource: " + e.err.Error()
}

// Unwrap returns the API server's error.
func (e *lookupError) Unwrap() error { return e.err }

// writeInfo writes info: it creates an object that does not exist,
// replaces one that does under force, else applies it (orig, the object
// in the release's last manifest, nil when it had none, is what helm's
// patch would start from; see applyOrPatch), and reports
// whether it did not exist before and, for one that did, whether the
// write changed it (helm's kube client logs a patch or "no changes").
func (k *kubeClient) writeInfo(info, orig *resource.Info, force bool) (created, changed bool, err error) {
	u, err := asUnstructured(info)
	if err != nil {
		return false, false, err
	}
	live := &unstructured.Unstructured{}
	live.SetGroupVersionKind(u.GroupVersionKind())
	err = k.c.Get(k.ctx, client.ObjectKeyFromObject(u), live)
	if err != nil && !apierrors.IsNotFound(err) {
		return false, false, &lookupError{err: err}
	}
	if apierrors.IsNotFound(err) {
		return true, true, k.applyOrCreate(u) // untypable.go
	}
	if force {
		return false, true, k.replace(u, live)
	}
	var prev *unstructured.Unstructured
	if orig != nil {
		if prev, err = asUnstructured(orig); err != nil {
			return false, false, err
		}
	}
	after, err := k.applyOrPatch(prev, u, live) // untypable.go
	if err != nil {
		return false, false, err
	}
	return false, !sameContent(live, after), nil
}

// replace writes u over live, the object as it is, with an update (an
// HTTP PUT of the whole object), as helm's kube client does under force
// (resource.Helper.Replace with overwrite, field manager helm's): u
// carries live's resourceVersion unless it has one, and what u does not
// set is gone but for what the API server fills in on update (defaults,
// a Service's cluster IPs and node ports); an immutable field it changes
// is refused as a patch would be. On a simulated cluster the update goes
// through its client, whose defaulting, allocation and checks are the
// API server's. Unknown fields are dropped first, as the API server drops
// them from helm's writes (see dropUnknownFields).
func (k *kubeClient) replace(u, live *unstructured.Unstructured) error {
	obj := u.DeepCopy()
	if obj.GetResourceVersion() == "" {
		obj.SetResourceVersion(live.GetResourceVersion())
	}
	obj.SetManagedFields(nil)
	dropUnknownFields(k.c.Scheme(), obj)
	if err := k.c.Update(k.ctx, obj, client.FieldOwner(fieldManager)); err != nil {
		return fmt.Errorf("replace %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return nil
}

// sameContent reports whether a and b differ in nothing but what every
// write changes (resourceVersion, generation, managedFields).
func sameContent(a, b *unstructured.Unstructured) bool {
	strip := func(u *unstructured.Unstructured) map[string]any {
		c := u.DeepCopy()
		c.SetResourceVersion("")
		c.SetGeneration(0)
		c.SetManagedFields(nil)
		return c.Object
	}
	return equality.Semantic.DeepEqual(strip(a), strip(b))
}

// deleteUnlessKept deletes info's object unless its live annotations say keep.
func (k *kubeClient) deleteUnlessKept(info *resource.Info) (bool, error) {
	u, err := asUnstructured(info)
	if err != nil {
		return false, err
	}
	live := &unstructured.Unstructured{}
	live.SetGroupVersionKind(u.GroupVersionKind())
	if err := k.c.Get(k.ctx, client.ObjectKeyFromObject(u), live); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	k.log.printf("Deleting %s %q in namespace %s...", info.Mapping.GroupVersionKind.Kind, info.Name, info.Namespace)
	if live.GetAnnotations()[kube.ResourcePolicyAnno] == kube.KeepPolicy {
		k.log.printf("Skipping delete of %q due to annotation [%s=%s]", info.Name, kube.ResourcePolicyAnno, kube.KeepPolicy)
		return false, nil
	}
	if err := k.c.Delete(k.ctx, live, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	return true, nil
}

// apply writes u with server-side apply and returns the object as the API
// server answered (the apply configuration is filled with its response).
func (k *kubeClient) apply(u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return k.applyAs(k.ctx, u, fieldManager)
}

// applyAs is apply under the field manager owner: helm's own, or a hook
// Job's that is taken to have applied u (hookcrds.go).
func (k *kubeClient) applyAs(ctx context.Context, u *unstructured.Unstructured, owner string) (*unstructured.Unstructured, error) {
	obj := u.DeepCopy()
	obj.SetResourceVersion("")
	obj.SetManagedFields(nil)
	dropUnknownFields(k.c.Scheme(), obj)
	if err := k.c.Apply(ctx, client.ApplyConfigurationFromUnstructured(obj),
		client.FieldOwner(owner), client.ForceOwnership); err != nil {
		return nil, fmt.Errorf("apply %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return obj, nil
}

// Delete deletes the resources in the background; missing ones count as deleted.
func (k *kubeClient) Delete(resources kube.ResourceList) (*kube.Result, []error) {
	return k.DeleteWithPropagationPolicy(resources, metav1.DeletePropagationBackground)
}

// DeleteWithPropagationPolicy deletes the resources with policy.
func (k *kubeClient) DeleteWithPropagationPolicy(resources kube.ResourceList, policy metav1.DeletionPropagation) (*kube.Result, []error) {
	res := &kube.Result{}
	if k.hooks.isPaused() {
		return res, nil
	}
	var errs []error
	for _, info := range resources {
		if k.hooks.skipDelete(info) {
			continue
		}
		k.log.printf("Starting delete for %q %s", info.Name, info.Mapping.GroupVersionKind.Kind)
		u, err := asUnstructured(info)
		if err == nil {
			err = client.IgnoreNotFound(k.c.Delete(k.ctx, u.DeepCopy(), client.PropagationPolicy(policy)))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("delete %s: %w", describe(info), err))
			continue
		}
		res.Deleted = append(res.Deleted, info)
	}
	return res, errs
}

// Wait waits, as helm's kube client does, until the resources are ready
// by helm's rules (see wait); Jobs count as ready.
func (k *kubeClient) Wait(resources kube.ResourceList, timeout time.Duration) error {
	return k.wait(resources, timeout, false)
}

// WaitWithJobs is Wait that also waits for Jobs to complete (helm's
// WaitForJobs, which Landscaper never sets).
func (k *kubeClient) WaitWithJobs(resources kube.ResourceList, timeout time.Duration) error {
	return k.wait(resources, timeout, true)
}

// wait waits until resources are ready: CRDs until their kinds are served
// (so that templates using them can be built; see waitCRDs), all other
// kinds by helm's own readiness checker (kube.ReadyChecker: Pods ready;
// Deployments with their new ReplicaSet's pods ready; StatefulSets and
// DaemonSets rolled out; PersistentVolumeClaims bound; Services with a
// cluster IP, a LoadBalancer with an ingress or an external IP;
// ReplicationControllers and ReplicaSets observed, with their Pods ready;
// Jobs complete only with jobs; other kinds at once), object by object in
// helm's order, as its waiter does.
//
// A real cluster is polled in real time until timeout, which ends the wait
// with helm's error (context deadline exceeded). A simulated cluster is
// looked at once, as for hooks (see hookRun): objects that are not ready
// pause the action, which goes on when the item is called again; when the
// progressing timeout has passed (hookRun.expired), they fail it with
// helm's timeout error. The wait of a rollback (an atomic upgrade that
// failed) does not pause: helm's rollback waits with a timeout of its
// own, which lscli cannot resume, so objects not ready at once count as
// ready there.
func (k *kubeClient) wait(resources kube.ResourceList, timeout time.Duration, jobs bool) error {
	if k.hooks.isPaused() {
		return errHookPending
	}
	k.log.printf("beginning wait for %d resources with timeout of %v", len(resources), timeout)
	if err := k.waitCRDs(resources, timeout); err != nil {
		return err
	}
	var others kube.ResourceList
	for _, info := range resources {
		if _, _, ok := crdKinds(info.Object); !ok {
			others = append(others, info)
		}
	}
	if len(others) == 0 {
		return nil
	}
	checker, err := readyChecker(k.ctx, k.c, k.log.printf, jobs)
	if err != nil {
		return err
	}
	errs := make([]int, len(others))
	look := func(ctx context.Context) (bool, error) {
		return waitLook(ctx, checker, others, errs, k.log.printf)
	}
	ready, err := k.pollOrLook(timeout, look)
	if err != nil || ready {
		return err
	}
	if k.rollingBack != nil && k.rollingBack() {
		return nil
	}
	return k.pause("resources")
}

// pollOrLook waits for look as helm's waits do: on a real cluster it polls
// in real time until timeout, which ends it with helm's error (context
// deadline exceeded), and reports done; on a simulated cluster it looks
// once and reports what look saw.
func (k *kubeClient) pollOrLook(timeout time.Duration, look func(context.Context) (bool, error)) (done bool, err error) {
	if k.real {
		err := realcluster.Poll(k.ctx, timeout, look)
		if wait.Interrupted(err) {
			return true, context.DeadlineExceeded
		}
		return true, err
	}
	return look(k.ctx)
}

// pause ends a wait on a simulated cluster that is not done yet: the
// action pauses, waiting for what (see hookRun), or fails with helm's
// timeout error when the progressing timeout has passed or the action
// cannot pause.
func (k *kubeClient) pause(what string) error {
	if k.hooks == nil || k.hooks.expired {
		return context.DeadlineExceeded
	}
	k.hooks.paused = what
	return errHookPending
}

// waitCRDs waits until the CRDs among resources are served (their kinds
// map). On a simulated cluster it does not wait: a CRD that is not served
// yet is an error, retried by the framework in virtual time.
func (k *kubeClient) waitCRDs(resources kube.ResourceList, timeout time.Duration) error {
	crds := false
	for _, info := range resources {
		gk, versions, ok := crdKinds(info.Object)
		if !ok || len(versions) == 0 {
			continue
		}
		crds = true
		served := func(context.Context) (bool, error) {
			_, err := k.c.RESTMapper().RESTMapping(gk, versions[0])
			return err == nil, nil
		}
		if !k.real {
			if ok, _ := served(k.ctx); !ok {
				return fmt.Errorf("CRD %s is not served yet", info.Name)
			}
			continue
		}
		if err := realcluster.Poll(k.ctx, timeout, served); err != nil {
			return fmt.Errorf("wait for CRD %s to be served: %w", info.Name, err)
		}
	}
	if crds && k.crdsServed != nil {
		k.crdsServed()
	}
	return nil
}

// WaitForDelete waits until resources are gone, as helm's uninstall does
// with wait: a real cluster is polled until timeout (helm's error:
// context deadline exceeded); a simulated one is looked at once, and
// objects still there pause the action as in wait, or fail it once the
// progressing timeout has passed. An error reading an object other than
// NotFound ends the wait with it, as in helm.
//
// helm also calls it after it deleted hooks by their delete policy; lscli
// does not wait for those (nor logs the wait), as before it had
// WaitForDelete: hook objects go at once on a simulated cluster.
func (k *kubeClient) WaitForDelete(resources kube.ResourceList, timeout time.Duration) error {
	if k.hooks.isPaused() {
		return errHookPending
	}
	hooks := true
	for _, info := range resources {
		if _, ok := isHook(info); !ok {
			hooks = false
		}
	}
	if hooks {
		return nil
	}
	k.log.printf("beginning wait for %d resources to be deleted with timeout of %v", len(resources), timeout)
	look := func(ctx context.Context) (bool, error) {
		for _, info := range resources {
			u, err := asUnstructured(info)
			if err != nil {
				return false, err
			}
			live := &unstructured.Unstructured{}
			live.SetGroupVersionKind(u.GroupVersionKind())
			err = k.c.Get(ctx, client.ObjectKeyFromObject(u), live)
			if err == nil || !apierrors.IsNotFound(err) {
				return false, err
			}
		}
		return true, nil
	}
	gone, err := k.pollOrLook(timeout, look)
	if err != nil || gone {
		return err
	}
	return k.pause("deletion")
}

// WaitAndGetCompletedPodPhase reports success: no pod runs here.
func (k *kubeClient) WaitAndGetCompletedPodPhase(string, time.Duration) (corev1.PodPhase, error) {
	return corev1.PodSucceeded, nil
}

// crdKinds returns the group kind and served versions of a CRD object.
func crdKinds(obj runtime.Object) (schema.GroupKind, []string, bool) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetKind() != "CustomResourceDefinition" || u.GroupVersionKind().Group != "apiextensions.k8s.io" {
		return schema.GroupKind{}, nil, false
	}
	group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
	vs, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	var versions []string
	for _, v := range vs {
		m, _ := v.(map[string]any)
		if name, _ := m["name"].(string); name != "" && m["served"] != false {
			versions = append(versions, name)
		}
	}
	return schema.GroupKind{Group: group, Kind: kind}, versions, true
}

// asUnstructured returns info's object as unstructured, converting if needed.
func asUnstructured(info *resource.Info) (*unstructured.Unstructured, error) {
	if u, ok := info.Object.(*unstructured.Unstructured); ok {
		return u, nil
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(info.Object)
	if err != nil {
		return nil, fmt.Errorf("convert %s: %w", describe(info), err)
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// describe names a resource info for messages.
func describe(info *resource.Info) string {
	name := info.Name
	if info.Namespace != "" {
		name = info.Namespace + "/" + name
	}
	return info.Mapping.GroupVersionKind.Kind + " " + name
}

// objectName is "namespace/name", or "name" for cluster-scoped objects.
func objectName(o metav1.Object) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}
