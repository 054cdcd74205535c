package action

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// SimulatedClusters answers hints' questions about the simulated clusters
// behind Targets (*simcluster.Clusters).
type SimulatedClusters interface {
	// WaitsFor says what the pods of a workload on the simulated cluster
	// behind target wait for, the zero Wait when nothing.
	WaitsFor(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) (simcluster.Wait, error)
	// UnservedVersions lists the CRDs of the simulated cluster behind
	// target that define gv's version of kind (any kind for "") with
	// served: false.
	UnservedVersions(ctx context.Context, target *lsv1alpha1.Target, gv schema.GroupVersion, kind string) ([]simcluster.UnservedVersion, error)
	// MutatingWebhooks lists the mutating admission webhooks of the
	// simulated cluster behind target that see updates of the object
	// ns/name of kind gvk.
	MutatingWebhooks(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) ([]simcluster.MutatingWebhook, error)
}

// workloadKinds are the kinds whose fake controllers run pods, by kind as
// Landscaper's readiness timeout names them.
var workloadKinds = map[string]schema.GroupVersionKind{
	"Deployment":            {Group: "apps", Version: "v1", Kind: "Deployment"},
	"StatefulSet":           {Group: "apps", Version: "v1", Kind: "StatefulSet"},
	"DaemonSet":             {Group: "apps", Version: "v1", Kind: "DaemonSet"},
	"ReplicaSet":            {Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	"ReplicationController": {Version: "v1", Kind: "ReplicationController"},
	"Job":                   {Group: "batch", Version: "v1", Kind: "Job"},
	"Pod":                   {Version: "v1", Kind: "Pod"},
}

// workloadHint says, for a deploy item whose readiness check (or helm's
// wait) timed out on a workload whose pods wait for an object that is not on its simulated
// cluster (a Secret a volume mounts, say), which object that is, and that
// on a real cluster something else may create it: a Job (a chart's hook
// that generates a certificate Secret, as ingress-nginx's does) or an
// operator, which a simulated cluster does not run; or which container
// cannot start because the kubelet cannot parse its image
// (InvalidImageName), which only the pod's status shows on a real cluster;
// or, for a StatefulSet with updateStrategy OnDelete, that its pods run an
// older template, which its controller does not replace.
// The cluster keeps no pods whose events would tell. It is empty for other
// items.
func workloadHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	le := di.Status.LastError
	if sims == nil || le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || di.Spec.Target == nil {
		return "", nil
	}
	what, kind, objNS, objName := "its readiness check", "", "", ""
	if m := readinessObjectTimeout.FindStringSubmatch(le.Message); m != nil {
		objNS, objName, kind = m[1], m[2], m[3]
	} else if strings.Contains(le.Message, helmTimeout) {
		// helm's wait logs the objects it finds not ready; the last one
		// is where it stopped.
		if m := lastNotReady(append([]*lsv1alpha1.Error{di.Status.FirstError}, di.Status.LastErrors...)); m != nil {
			what, kind, objNS, objName = "helm's wait", m[1], m[2], m[3]
		}
	}
	gvk, ok := workloadKinds[kind]
	if !ok {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	w, err := sims.WaitsFor(ctx, target, gvk, objNS, objName)
	if err != nil || w == (simcluster.Wait{}) {
		return "", err
	}
	// on is where every hint below starts: the item and what timed out on which workload.
	on := fmt.Sprintf("DeployItem %s/%s: %s timed out on %s %s/%s", di.Namespace, di.Name, what, kind, objNS, objName)
	if w.Outdated > 0 {
		return fmt.Sprintf("%s, whose updateStrategy OnDelete replaces no pod: "+
			"%d of its %d pods run an older template than revision %s, so updatedReplicas stays below replicas, which "+
			"Landscaper's default readiness check wants (helm's wait and kstatus pass an OnDelete StatefulSet). On a real "+
			"cluster delete those pods (kubectl delete pod), and the controller recreates them from the new revision; a "+
			"simulated cluster has no pods to delete: use updateStrategy RollingUpdate, or the template the pods run",
			on, w.Outdated, w.Replicas, w.Revision), nil
	}
	if w.Reason == simcluster.ReasonInvalidImageName {
		return fmt.Sprintf("%s, whose pods cannot start: container %q waits "+
			"with reason %s: %s. The API server stores an image the kubelet cannot parse, on a real cluster too, where "+
			"only the pods' status shows it; a chart or manifest that joins a repository and a tag makes one of a "+
			"reference pinned by digest (repo:tag@sha256:..., as an OCM transfer leaves it): fix the image, or the "+
			"values it is made of",
			on, w.Container, w.Reason, w.Message), nil
	}
	if w.Claim != "" {
		return claimHint(on, objNS, w), nil
	}
	if w.PodSecurity != "" {
		return podSecurityHint(on, kind, objNS, w), nil // hints_podsecurity.go
	}
	return fmt.Sprintf("%s, whose pods wait for an object "+
		"they need: %s. If that cluster is simulated: only the deployers and the seeds create objects there; on a real "+
		"cluster a Job or a controller may create it (a chart's hook Job that generates a certificate Secret, an "+
		"operator). If one does, seed the object on the deploy item's target cluster (simulatedCluster.seeds, see "+
		"docs/deployers.md); else apply it in this item or in one it depends on",
		on, w.Missing), nil
}

// claimHint is the hint for a workload in namespace ns whose pods wait for
// a claim that exists but stays Pending (w.Claim), which the scheduler does
// not place them without, with why the claim is pending, when known; on
// says what timed out on which workload.
func claimHint(on, ns string, w simcluster.Wait) string {
	why := w.ClaimPending
	if why == "" {
		why = "not bound"
	}
	todo := "Look at the claim with lscli get --target on the item's target cluster"
	if strings.HasPrefix(why, "storageclass.storage.k8s.io ") {
		todo = "Create that StorageClass before the claim (in this item, one it depends on, or as a seed of the " +
			"simulated cluster), or name one that exists in the claim's storageClassName (a chart's storageClass " +
			"value; the class of a claim that exists, and a StatefulSet's claim templates, cannot change: delete " +
			"the claim and the StatefulSet first). On a real cluster the claim stays Pending the same way (event ProvisioningFailed)"
	}
	return fmt.Sprintf("%s, whose pods wait for PersistentVolumeClaim %s/%s, "+
		"which stays Pending: %s. A pod is not scheduled until its claims are Bound (%s). %s",
		on, ns, w.Claim, why, w.Missing, todo)
}

// helmTimeout is the progressing timeout of Landscaper's helm deployer,
// which ends a helm wait that did not see its objects ready.
const helmTimeout = `timeout at: "helm deployer: start reconcile"`

// helmNotReady matches what helm's ready checker logs for a workload that
// is not ready (kube.ReadyChecker: "Deployment is not ready: NS/NAME. 0
// out of 1 expected pods are ready", "Pod is not ready: NS/NAME").
var helmNotReady = regexp.MustCompile(`(?m)\b(Deployment|StatefulSet|DaemonSet|ReplicaSet|Pod) is not ready: ([^/\s]+)/(\S+?)(?:\.\s.*)?$`)

// lastNotReady returns helmNotReady's match of the last line helm logged
// for a workload that was not ready, in errs in their order, or nil.
func lastNotReady(errs []*lsv1alpha1.Error) []string {
	var last []string
	for _, e := range errs {
		if e == nil {
			continue
		}
		if ms := helmNotReady.FindAllStringSubmatch(e.Message, -1); len(ms) > 0 {
			last = ms[len(ms)-1]
		}
	}
	return last
}
