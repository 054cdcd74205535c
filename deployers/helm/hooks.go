package helm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/go-multierror"
	"helm.sh/helm/v3/pkg/kube"
	"helm.sh/helm/v3/pkg/release"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/realcluster"
)

// hookAnnotation marks a template as a helm hook.
const hookAnnotation = "helm.sh/hook"

// hookRun is what one helm action (install, upgrade, uninstall) knows about
// its hooks, shared by the kube client and the release store of the action.
//
// helm waits for a hook Job inside the action until the Job completes or
// fails, or the action's timeout passes (kube.Client.WatchUntilReady). On a
// simulated cluster the Job's status only changes when the virtual clock
// moves, which it never does during a call. So the action pauses instead:
// WatchUntilReady finds the Job still running, sets paused, and from then on
// the action's writes (the failed release record, hook-failed deletions, an
// atomic rollback) are dropped, so the cluster keeps what it has at that
// moment, as while helm waits: the Job, and the release record that helm
// recorded before it created the hook (status pending-install,
// pending-upgrade or uninstalling; the hooks run so far with phase
// Succeeded, the one waited for Running). The deployer reports the item
// Progressing (Deleting) and is called again when the cluster changes (the
// rules' forecast) or the progressing timeout passes.
//
// The next call runs the action again from the start and resumes: resumed
// holds the hooks the record says ran. Their creation is not repeated (no
// before-hook-creation deletion, no create) and a hook that succeeded is not
// waited for again; the one that was waited for is looked at again. When
// the progressing timeout has passed (expired), a hook Job still running
// fails as helm's wait does when the action's timeout passes.
//
// helm's wait for the release's objects (wait or atomic; kubeClient.wait)
// and uninstall's wait for their deletion (WaitForDelete) pause the
// action the same way, with no hook running: the record is the pending
// one helm wrote before it applied the objects (deleted them), and the
// resumed action applies them again (they are the release's, so helm
// adopts them) and looks again.
type hookRun struct {
	// resumed are the hooks an earlier call of the same action ran, by
	// hookKey, with the phase the release record has for them.
	resumed map[string]release.HookPhase
	// deletedOnSuccess are the resumed hooks with the hook-succeeded
	// delete policy.
	deletedOnSuccess map[string]bool
	// created are the resumed hooks whose creation this call has passed:
	// later deletions of them (hook-succeeded, hook-failed) are real.
	created map[string]bool
	// paused names the hook the action waits for ("resources" when it
	// waits for its objects to be ready, "deletion" for them to be
	// gone); the action's writes are dropped from then on.
	paused string
	// expired means the progressing timeout has passed: a running hook Job
	// fails with helm's timeout error.
	expired bool
}

// hookKey identifies a hook object by kind and name, as helm's release
// record names it (release.Hook Kind and Name).
func hookKey(kind, name string) string { return kind + "/" + name }

// isHook reports whether u is a hook object.
func isHook(info *resource.Info) (string, bool) {
	u, err := asUnstructured(info)
	if err != nil {
		return "", false
	}
	if _, ok := u.GetAnnotations()[hookAnnotation]; !ok {
		return "", false
	}
	return hookKey(u.GetKind(), u.GetName()), true
}

// isPaused reports whether the action waits for a hook (nil-safe).
func (h *hookRun) isPaused() bool { return h != nil && h.paused != "" }

// resumedPhase returns the phase the record has for the hook info is, if it
// is a resumed hook.
func (h *hookRun) resumedPhase(info *resource.Info) (string, release.HookPhase, bool) {
	if h == nil || len(h.resumed) == 0 {
		return "", "", false
	}
	key, ok := isHook(info)
	if !ok {
		return "", "", false
	}
	p, ok := h.resumed[key]
	return key, p, ok
}

// skipDelete reports whether a deletion of info is the before-hook-creation
// deletion of a resumed hook, which the earlier call did.
func (h *hookRun) skipDelete(info *resource.Info) bool {
	key, _, ok := h.resumedPhase(info)
	return ok && !h.created[key]
}

// skipCreate reports whether the creation of info is one an earlier call
// did: the first creation in this call of a resumed hook that succeeded,
// or of the one waited for that still exists (live is whether it does).
//
// The one waited for (Running in the record) that is gone and has the
// hook-succeeded policy completed: helm records nothing between the last
// hook of an event and the end of the action, so an action that went on
// past its hooks to wait for the release's objects left the last hook
// Running in the record, after it deleted the event's hook-succeeded
// hooks (a paused action deletes nothing, so the hook was not gone while
// the action waited for it). It counts as succeeded, as for helm, whose
// wait never looks back: creating it again would run it without what
// the hooks before it made, which are gone too (ingress-nginx's
// certificate Job without its ServiceAccount).
func (h *hookRun) skipCreate(info *resource.Info, live func() bool) bool {
	key, phase, ok := h.resumedPhase(info)
	if !ok {
		return false
	}
	if h.created == nil {
		h.created = map[string]bool{}
	}
	if h.created[key] {
		// A hook of several events (ingress-nginx's ServiceAccount and
		// RBAC, for its pre-install and post-install Jobs) is created
		// once per event: the earlier call did the first of these
		// creations, and the record's phase is its last run's. A later
		// event's creation follows the hook-succeeded deletion this
		// call has just done again, so it is done too.
		return false
	}
	h.created[key] = true
	if phase == release.HookPhaseSucceeded || live() {
		return true
	}
	if phase == release.HookPhaseRunning && h.deletedOnSuccess[key] {
		h.resumed[key] = release.HookPhaseSucceeded
		return true
	}
	return false
}

// resumeHooks returns the hooks that rel, a release record an action left
// while it waited for a hook, says were run, with their phases, and those
// of them with the hook-succeeded delete policy.
func resumeHooks(rel *release.Release) (map[string]release.HookPhase, map[string]bool) {
	out := map[string]release.HookPhase{}
	onSuccess := map[string]bool{}
	for _, h := range rel.Hooks {
		switch h.LastRun.Phase {
		case release.HookPhaseSucceeded, release.HookPhaseRunning, release.HookPhaseUnknown:
			key := hookKey(h.Kind, h.Name)
			out[key] = h.LastRun.Phase
			if slices.Contains(h.DeletePolicies, release.HookSucceeded) {
				onSuccess[key] = true
			}
		}
	}
	return out, onSuccess
}

// errHookPending is what WatchUntilReady returns when it pauses the action;
// helm turns it into a failure that is dropped (see hookRun).
var errHookPending = errors.New("hook still running: the action waits")

// hookTimeout is the error of helm's wait for a hook when the action's
// timeout passes (wait.ErrWaitTimeout: "timed out waiting for the
// condition").
var hookTimeout = wait.ErrWaitTimeout

// WatchUntilReady waits for hook Jobs and Pods to complete, as helm's kube
// client does: a Job with condition Complete is done, one with condition
// Failed is the error "job <name> failed: <reason>"; a Pod in phase
// Succeeded is done, one in phase Failed is the error "pod <name> failed"
// (the simulated cluster runs a Pod with restartPolicy Never or OnFailure to
// completion, one with Always for ever); other kinds are done when created.
// The errors are collected as helm's (a multierror: "1 error occurred:
// ...").
//
// A real cluster is polled in real time until the timeout. A simulated one
// is looked at once: a Job or Pod still running pauses the action (see
// hookRun), or fails it with helm's timeout error when the progressing
// timeout has passed.
func (k *kubeClient) WatchUntilReady(resources kube.ResourceList, timeout time.Duration) error {
	if k.hooks.isPaused() {
		return errHookPending
	}
	if len(resources) == 0 {
		return kube.ErrNoObjectsVisited
	}
	running := ""
	look := func(ctx context.Context) (bool, error) {
		var result error
		running = ""
		for _, info := range resources {
			done, err := k.hookDone(ctx, info)
			if err != nil {
				result = multierror.Append(result, err)
			} else if !done && running == "" {
				running = describe(info)
			}
		}
		if running != "" {
			return false, nil
		}
		if result != nil {
			return true, result
		}
		return true, nil
	}
	for _, info := range resources {
		if kind := info.Mapping.GroupVersionKind.Kind; kind == "Job" || kind == "Pod" {
			k.log.printf("Watching for changes to %s %s with timeout of %v", kind, info.Name, timeout)
		}
	}
	if k.real {
		err := realcluster.Poll(k.ctx, timeout, look)
		if wait.Interrupted(err) {
			return multierror.Append(nil, hookTimeout)
		}
		return err
	}
	done, err := look(k.ctx)
	if done {
		return err
	}
	if k.hooks != nil && k.hooks.expired {
		return multierror.Append(nil, hookTimeout)
	}
	if k.hooks != nil {
		k.hooks.paused = running
	}
	return errHookPending
}

// hookDone looks at a hook object: a Job is done when complete and fails
// when failed, a Pod is done when it succeeded and fails when it failed; a
// hook that succeeded in an earlier call of the action is done; a missing
// Job or Pod is not done (helm's watch sees no event for it).
func (k *kubeClient) hookDone(ctx context.Context, info *resource.Info) (bool, error) {
	if _, phase, ok := k.hooks.resumedPhase(info); ok && phase == release.HookPhaseSucceeded {
		return true, nil
	}
	gvk := info.Mapping.GroupVersionKind
	if gvk.Group == "" && gvk.Kind == "Pod" {
		return k.podDone(ctx, info)
	}
	if gvk.Group != "batch" || gvk.Kind != "Job" {
		return true, nil
	}
	job := &batchv1.Job{}
	if found, err := k.getHook(ctx, info, job); !found || err != nil {
		return false, err
	}
	for _, c := range job.Status.Conditions {
		if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
			return true, k.hookJobAppliesCRDs(ctx, job) // hookcrds.go
		} else if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue {
			return true, fmt.Errorf("job %s failed: %s", info.Name, c.Reason)
		}
	}
	k.log.printf("%s: Jobs active: %d, jobs failed: %d, jobs succeeded: %d", info.Name, job.Status.Active, job.Status.Failed, job.Status.Succeeded)
	return false, nil
}

// getHook reads the hook object of info into obj; a missing object is not
// found and no error (helm's watch sees no event for it).
func (k *kubeClient) getHook(ctx context.Context, info *resource.Info, obj client.Object) (bool, error) {
	err := k.c.Get(ctx, client.ObjectKey{Namespace: info.Namespace, Name: info.Name}, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get %s: %w", describe(info), err)
	}
	return true, nil
}

// podDone looks at a hook Pod as helm's waitForPodSuccess does: phase
// Succeeded is done, Failed is the error "pod <name> failed", Pending and
// Running are logged and not done.
func (k *kubeClient) podDone(ctx context.Context, info *resource.Info) (bool, error) {
	pod := &corev1.Pod{}
	if found, err := k.getHook(ctx, info, pod); !found || err != nil {
		return false, err
	}
	switch pod.Status.Phase {
	case corev1.PodSucceeded:
		k.log.printf("Pod %s succeeded", pod.Name)
		return true, nil
	case corev1.PodFailed:
		return true, fmt.Errorf("pod %s failed", pod.Name)
	case corev1.PodPending:
		k.log.printf("Pod %s pending", pod.Name)
	case corev1.PodRunning:
		k.log.printf("Pod %s running", pod.Name)
	}
	return false, nil
}
