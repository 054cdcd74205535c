package action

import (
	"encoding/json"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/timeout"
)

// Landscaper once had timeouts of its own for the readiness checks and the
// exports of the manifest and helm deployers: readinessChecks.timeout
// (default 180s), readinessChecks.custom[].timeout, exports.defaultTimeout
// and exports.exports[].timeout. It removed them (gardener/landscaper PR
// #847, apis/deployer/utils/readinesschecks types_healthchecks.go and
// managedresource types.go) for the deploy item's progressing timeout,
// spec.timeout (default 10m). Its deployers decode their configuration
// without strictness (pkg/api/types.go NewDecoder: the codec factory's
// UniversalDecoder, which drops unknown fields), so a blueprint written for the old fields, as many
// are, still deploys: the fields are dropped and every wait ends at the
// item's timeout. lscli decodes alike; the hint says so when such an item
// timed out.

// droppedTimeoutField is a timeout field of a deployer's configuration
// that Landscaper no longer has: its path and the value set.
type droppedTimeoutField struct {
	path, value string
}

// droppedTimeouts are the timeout fields Landscaper removed that di's
// configuration sets, in the order of the list above.
func droppedTimeouts(di *lsv1alpha1.DeployItem) []droppedTimeoutField {
	if di.Spec.Configuration == nil {
		return nil
	}
	var cfg struct {
		ReadinessChecks struct {
			Timeout any `json:"timeout"`
			Custom  []struct {
				Name    string `json:"name"`
				Timeout any    `json:"timeout"`
			} `json:"custom"`
		} `json:"readinessChecks"`
		Exports struct {
			DefaultTimeout any `json:"defaultTimeout"`
			Exports        []struct {
				Key     string `json:"key"`
				Timeout any    `json:"timeout"`
			} `json:"exports"`
		} `json:"exports"`
	}
	if json.Unmarshal(di.Spec.Configuration.Raw, &cfg) != nil {
		return nil
	}
	var out []droppedTimeoutField
	add := func(path string, v any) {
		if v != nil {
			out = append(out, droppedTimeoutField{path, fmt.Sprint(v)})
		}
	}
	add("readinessChecks.timeout", cfg.ReadinessChecks.Timeout)
	for _, c := range cfg.ReadinessChecks.Custom {
		add(fmt.Sprintf("readinessChecks.custom[%s].timeout", c.Name), c.Timeout)
	}
	add("exports.defaultTimeout", cfg.Exports.DefaultTimeout)
	for _, e := range cfg.Exports.Exports {
		add(fmt.Sprintf("exports.exports[%s].timeout", e.Key), e.Timeout)
	}
	return out
}

// droppedTimeoutHint says, for a deploy item that failed at its
// progressing timeout and whose configuration sets timeout fields
// Landscaper removed, that they were not used and which timeout was: the
// user expected the wait to end earlier (or later). It is empty for other
// items.
func droppedTimeoutHint(di *lsv1alpha1.DeployItem) string {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || le.Reason != lsv1alpha1.ProgressingTimeoutReason {
		return ""
	}
	fields := droppedTimeouts(di)
	if len(fields) == 0 {
		return ""
	}
	set := make([]string, len(fields))
	for i, f := range fields {
		set[i] = fmt.Sprintf("%s (%s)", f.path, f.value)
	}
	limit := "spec.timeout is not set: the default, " + timeout.Default.String()
	if di.Spec.Timeout != nil {
		limit = "spec.timeout is " + di.Spec.Timeout.Duration.String()
	}
	return fmt.Sprintf("DeployItem %s/%s: its configuration sets %s, which Landscaper's deployers no longer have: they "+
		"drop the field when they read the configuration, as lscli does, and the readiness checks and exports wait "+
		"until the item's progressing timeout (%s). To wait for another time, set timeout on the item in the "+
		"blueprint's deploy execution (deployItems[].timeout) and remove the dropped field",
		di.Namespace, di.Name, strings.Join(set, ", "), limit)
}
