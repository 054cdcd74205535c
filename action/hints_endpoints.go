package action

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/labels"
)

// endpointKinds are the kinds kube-controller-manager's endpoint
// controllers write for a Service with a selector (the EndpointSlice
// controller and the Endpoints controller), by apiVersion and kind.
var endpointKinds = map[string]string{"discovery.k8s.io/v1/EndpointSlice": "the EndpointSlice controller", "v1/Endpoints": "the Endpoints controller"}

// endpointsHint says, for a deploy item whose readiness check timed out
// and whose custom check reads EndpointSlices or Endpoints (a user who
// waits for a Service to have ready endpoints, kube-state-metrics' say),
// that on a real cluster kube-controller-manager writes them once the
// Service's pods are ready, that a simulated cluster runs no pods and
// writes none, and what to check instead. It is empty for other items.
func endpointsHint(di *lsv1alpha1.DeployItem) string {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || !strings.Contains(le.Message, readinessTimeout[:len(readinessTimeout)-1]) {
		return ""
	}
	for _, c := range checkConfigOf(di).ReadinessChecks.CustomReadinessChecks {
		if c.TargetName != nil && *c.TargetName != "" {
			continue
		}
		what := ""
		if s := c.LabelSelector; s != nil && endpointKinds[s.APIVersion+"/"+s.Kind] != "" {
			what = fmt.Sprintf("%s objects with labels %s, which %s", s.Kind, labels.Set(s.Labels).String(), endpointKinds[s.APIVersion+"/"+s.Kind])
		}
		for _, r := range c.Resource {
			if ctl := endpointKinds[r.APIVersion+"/"+r.Kind]; what == "" && ctl != "" {
				what = fmt.Sprintf("%s %s/%s, which %s", r.Kind, r.Namespace, r.Name, ctl)
			}
		}
		if what == "" {
			continue
		}
		return fmt.Sprintf("DeployItem %s/%s: its readiness check timed out; the custom check %q reads %s of "+
			"kube-controller-manager writes for a Service with a selector, an endpoint for each pod it selects. If that "+
			"cluster is simulated: it runs no pods and no such controller, and writes no Endpoints or EndpointSlices, "+
			"so the check cannot pass there. Check the workload behind the Service instead (Landscaper's default "+
			"readiness check waits for the pods of its Deployments, StatefulSets and DaemonSets to be ready), or seed "+
			"the object on the deploy item's target cluster (simulatedCluster.seeds, see docs/deployers.md)",
			di.Namespace, di.Name, c.Name, what)
	}
	return ""
}
