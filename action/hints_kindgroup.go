package action

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"

	"github.com/lscli/lscli/deployers/simcluster"
)

// controlledTimedOut reports whether a fake controller fills in the status
// of the object a readiness check timed out on, kind namespace/name as
// Landscaper's timeout names it (the kind without its group). A custom
// check of cfg that selects that object tells its group (a Knative Service
// is not a core Service); else any group of the kind counts, as the
// default checks look at built-in kinds only.
func controlledTimedOut(cfg checkConfig, kind, namespace, name string) bool {
	for _, c := range cfg.ReadinessChecks.CustomReadinessChecks {
		if gk, ok := selectedGroupKind(c, kind, namespace, name); ok {
			return simcluster.HasGroupKindController(gk)
		}
	}
	return simcluster.HasController(kind)
}

// selectedGroupKind is the group and kind of the object kind namespace/name
// when check c selects it by name, or selects objects of that kind by
// labels.
func selectedGroupKind(c readinesschecks.CustomReadinessCheckConfiguration, kind, namespace, name string) (schema.GroupKind, bool) {
	for _, r := range c.Resource {
		if r.Kind == kind && r.Namespace == namespace && r.Name == name {
			return schema.FromAPIVersionAndKind(r.APIVersion, kind).GroupKind(), true
		}
	}
	if l := c.LabelSelector; l != nil && l.Kind == kind {
		return schema.FromAPIVersionAndKind(l.APIVersion, kind).GroupKind(), true
	}
	return schema.GroupKind{}, false
}

// shownKind is kind as the hint names it: KIND.GROUP (kubectl's way) when a
// custom check of cfg selects the object in a group whose kind of that name
// has no fake controller while a kind of another group has, so that a
// Knative Service is not taken for a core one.
func shownKind(cfg checkConfig, kind, namespace, name string) string {
	for _, c := range cfg.ReadinessChecks.CustomReadinessChecks {
		if gk, ok := selectedGroupKind(c, kind, namespace, name); ok && simcluster.HasController(kind) && !simcluster.HasGroupKindController(gk) {
			return gk.String()
		}
	}
	return kind
}
