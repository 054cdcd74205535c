package action

import (
	"fmt"
	"strings"
)

// ownCheckReads names the objects the custom readiness checks of cfg read
// by name from the deploy item's own target cluster, with what each check
// requires of them ("; the custom check NAME reads KIND NS/NAME; the
// custom check NAME requires ..."), for a check that timed out before it
// could read one: Landscaper's message then names no object. An operator
// writes such an object on a real cluster (Calico's TigeraStatus calico,
// which the tigera-operator creates), so the user learns which one to
// seed. Checks that select by labels, and those of another Target
// (secondaryReads), are left out; "" when none is left.
func ownCheckReads(cfg checkConfig) string {
	var parts []string
	for _, c := range cfg.ReadinessChecks.CustomReadinessChecks {
		if c.TargetName != nil && *c.TargetName != "" {
			continue
		}
		for _, r := range c.Resource {
			if r.Name == "" {
				continue
			}
			parts = append(parts, fmt.Sprintf("the custom check %q reads %s %s/%s", c.Name, r.Kind, r.Namespace, r.Name))
			if req := checkRequirements(cfg, r.Kind, r.Namespace, r.Name); req != "" {
				parts = append(parts, strings.TrimPrefix(req, "; "))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}
