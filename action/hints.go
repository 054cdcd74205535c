package action

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/reconcile"
)

// The timeout messages of Landscaper's readiness checks and exporter
// (pkg/deployer/lib/readinesscheck/readiness.go, resourcemanager/exporter.go),
// which lscli's deployers write as they are.
var (
	readinessObjectTimeout = regexp.MustCompile(`timeout at: "deployer: during readiness check - resource ([^/]*)/(\S+) of type (\S+)"`)
	readinessTimeout       = `timeout at: "deployer: during readiness check"`
	exportTimeout          = regexp.MustCompile(`timeout at: "deployer: during export - key: ([^"]*)"`)
)

// timeoutHint says, for a deploy item that failed because its readiness
// check or an export timed out, what a simulated cluster does not do that a
// real one would, and how to make the check pass: on a simulated cluster only
// the fake controllers fill in status, and nothing but the deployers and the
// seeds creates objects. It is empty for other items, and for a kind whose
// status a fake controller fills in (then a fake rule held it back). A
// custom check or an export with a targetName reads from that Target's
// cluster, which the hint names with describe (nil: the Target's name).
func timeoutHint(di *lsv1alpha1.DeployItem, describe func(namespace, name string) string) string {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return ""
	}
	if describe == nil {
		describe = func(ns, name string) string { return "Target " + ns + "/" + name }
	}
	ref := fmt.Sprintf("DeployItem %s/%s", di.Namespace, di.Name)
	cfg := checkConfigOf(di)
	reads := secondaryReads(cfg)
	const seeds = "(simulatedCluster.seeds, see docs/deployers.md)"
	seed := "seed it on the deploy item's target cluster " + seeds
	switch m := readinessObjectTimeout.FindStringSubmatch(le.Message); {
	case m != nil:
		kind := m[3]
		if controlledTimedOut(cfg, kind, m[1], m[2]) { // hints_kindgroup.go
			return ""
		}
		where := ""
		for _, r := range reads {
			if r.check != "" && r.kind == kind && r.namespace == m[1] && r.name == m[2] {
				where = fmt.Sprintf("; the custom check %q reads it from the cluster of %s, its targetName", r.check,
					describe(di.Namespace, r.target))
				seed = "seed it on that cluster " + seeds
				break
			}
		}
		where += checkRequirements(cfg, kind, m[1], m[2])
		return fmt.Sprintf("%s: its readiness check timed out on %s %s/%s%s. If that cluster is simulated: no controller "+
			"fills in the status of a %s there (fake controllers serve only %s), so the object stays as it was applied. "+
			"To go on as a real cluster would once the object is ready, %s with the status the check requires; "+
			"a deployer's apply keeps that status when the CRD has the status subresource",
			ref, shownKind(cfg, kind, m[1], m[2]), m[1], m[2], where, shownKind(cfg, kind, m[1], m[2]), strings.Join(simcluster.ControlledKinds(), ", "), seed)
	case strings.Contains(le.Message, readinessTimeout):
		var where []string
		for _, r := range reads {
			if r.check != "" {
				where = append(where, fmt.Sprintf("the custom check %q reads %s %s/%s from the cluster of %s, its targetName",
					r.check, r.kind, r.namespace, r.name, describe(di.Namespace, r.target)))
			}
		}
		also := ownCheckReads(cfg) // hints_checkobjects.go
		if len(where) > 0 {
			also = "; " + strings.Join(where, "; ") + ": seed such an object on that cluster"
		}
		return fmt.Sprintf("%s: its readiness check timed out before it could read an object it checks: the object "+
			"is not on the target cluster, or its kind is not served there. If that cluster is simulated: only the "+
			"deployers and the seeds create objects there (no operator or controller does, nor installs CRDs), so "+
			"%s, with its CRD and the status the check requires%s", ref, strings.Replace(seed, "seed it", "seed the object", 1), also)
	}
	if m := exportTimeout.FindStringSubmatch(le.Message); m != nil {
		if h := clearedFieldHint(di, m[1]); h != "" { // hints_exportfield.go
			return h
		}
		where := ""
		for _, r := range reads {
			if r.export == m[1] {
				where = fmt.Sprintf(" (it reads %s %s/%s from the cluster of %s, its targetName)", r.kind, r.namespace, r.name,
					describe(di.Namespace, r.target))
				seed = "seed it on that cluster " + seeds
				break
			}
		}
		return fmt.Sprintf("%s: export %q timed out%s: the object it is read from, or the field, is not there. If the "+
			"target cluster is simulated: only fake controllers fill in status (%s), so a field another controller "+
			"writes is never there: %s with that field", ref, m[1], where, strings.Join(simcluster.ControlledKinds(), ", "),
			strings.Replace(seed, "seed it", "seed the object", 1))
	}
	return ""
}

// checkConfig is what the hints read of a helm or manifest item's
// configuration: the readiness checks and exports, which both deployers'
// ProviderConfigurations have under these names.
type checkConfig struct {
	ReadinessChecks readinesschecks.ReadinessCheckConfiguration `json:"readinessChecks"`
	Exports         *managedresource.Exports                    `json:"exports,omitempty"`
}

// checkConfigOf decodes di's configuration as a checkConfig; one that does
// not decode has no checks and exports.
func checkConfigOf(di *lsv1alpha1.DeployItem) checkConfig {
	var cfg checkConfig
	if di.Spec.Configuration == nil || json.Unmarshal(di.Spec.Configuration.Raw, &cfg) != nil {
		return checkConfig{}
	}
	return cfg
}

// manifestConfigOf decodes di's configuration as the manifest deployer's
// ProviderConfiguration; false when it has none or it does not decode.
func manifestConfigOf(di *lsv1alpha1.DeployItem) (manifestv1alpha2.ProviderConfiguration, bool) {
	var cfg manifestv1alpha2.ProviderConfiguration
	if di.Spec.Configuration == nil || json.Unmarshal(di.Spec.Configuration.Raw, &cfg) != nil {
		return manifestv1alpha2.ProviderConfiguration{}, false
	}
	return cfg, true
}

// secondaryRead is an object that a custom readiness check (check) or an
// export (export, its key) of a deploy item reads from the cluster of
// another Target, the one its targetName names.
type secondaryRead struct {
	check, export, target string
	kind, namespace, name string
}

// secondaryReads lists the objects that the custom readiness checks and
// exports of cfg read through a targetName.
func secondaryReads(cfg checkConfig) []secondaryRead {
	var out []secondaryRead
	for _, c := range cfg.ReadinessChecks.CustomReadinessChecks {
		if c.TargetName == nil || *c.TargetName == "" {
			continue
		}
		for _, r := range c.Resource {
			out = append(out, secondaryRead{check: c.Name, target: *c.TargetName, kind: r.Kind, namespace: r.Namespace, name: r.Name})
		}
	}
	if cfg.Exports == nil {
		return out
	}
	for _, e := range cfg.Exports.Exports {
		if e.TargetName != nil && *e.TargetName != "" && e.FromResource != nil {
			r := e.FromResource
			out = append(out, secondaryRead{export: e.Key, target: *e.TargetName, kind: r.Kind, namespace: r.Namespace, name: r.Name})
		}
	}
	return out
}

// checkRequirements says what the first custom readiness check of cfg that
// selects the object kind namespace/name requires of it ("; the custom
// check NAME requires PATH OP VALUE, ..."), or "" when none selects it.
func checkRequirements(cfg checkConfig, kind, namespace, name string) string {
	for _, c := range cfg.ReadinessChecks.CustomReadinessChecks {
		if !slices.ContainsFunc(c.Resource, func(r lsv1alpha1.TypedObjectReference) bool {
			return r.Kind == kind && r.Name == name && r.Namespace == namespace
		}) || len(c.Requirements) == 0 {
			continue
		}
		var reqs []string
		for _, r := range c.Requirements {
			var vals []string
			for _, v := range r.Value {
				var value struct{ Value json.RawMessage }
				if json.Unmarshal(v.Raw, &value) == nil && value.Value != nil {
					vals = append(vals, string(value.Value))
				}
			}
			op := string(r.Operator)
			req := r.JsonPath + " " + op
			switch {
			case len(vals) == 1 && (op == "==" || op == "=" || op == "!="):
				req += " " + vals[0]
			case len(vals) > 0:
				req += " [" + strings.Join(vals, ",") + "]"
			}
			reqs = append(reqs, req)
		}
		return fmt.Sprintf("; the custom check %q requires %s", c.Name, strings.Join(reqs, ", "))
	}
	return ""
}

// describeTarget names Target namespace/name for a hint, with the server
// of the cluster it reaches when it names one (a seed entry may name that
// server); c is the landscape's cluster.
func describeTarget(ctx context.Context, c *fakecluster.Cluster) func(namespace, name string) string {
	return func(namespace, name string) string {
		s := "Target " + namespace + "/" + name
		t := &lsv1alpha1.Target{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, t); err != nil {
			return s
		}
		if key, err := simcluster.Key(ctx, t, c); err == nil && strings.Contains(key, "://") {
			s += " (server " + key + ")"
		}
		return s
	}
}

// hintsIn returns the hints about the tree of inst, subinstallations
// first, in the tree of the root installation root: the timeout and other
// hints of its failed deploy items, and apart (deadEnds) those of items
// whose deletion fails the same way on every retry (deletionDeadEnd;
// only while root is being deleted). explained has lscli's texts of the
// run's errors (may be nil), which the report shows; sims (may be nil)
// answers questions about the simulated clusters.
func hintsIn(ctx context.Context, c *fakecluster.Cluster, root, inst *lsv1alpha1.Installation, explained *reconcile.Explanations,
	sims SimulatedClusters) (hints, deadEnds []string, err error) {
	if h := templateHint(inst, explained); h != "" {
		hints = append(hints, h)
	}
	if h := landscaperObjectSizeHint("Installation", inst.Namespace, inst.Name, inst.Status.LastError); h != "" { // hints_objsize.go
		hints = append(hints, h)
	}
	h, err := configMapKeyHint(ctx, c, inst)
	if err != nil {
		return nil, nil, err
	}
	if h != "" {
		hints = append(hints, h)
	}
	subs := &lsv1alpha1.InstallationList{}
	if err := c.List(ctx, subs, fakecluster.ListOptions{Namespace: inst.Namespace, OwnerUID: inst.UID}); err != nil {
		return nil, nil, fmt.Errorf("list subinstallations of %s/%s: %w", inst.Namespace, inst.Name, err)
	}
	for i := range subs.Items {
		h, d, err := hintsIn(ctx, c, root, &subs.Items[i], explained, sims)
		if err != nil {
			return nil, nil, err
		}
		hints, deadEnds = append(hints, h...), append(deadEnds, d...)
	}
	exec := &lsv1alpha1.Execution{}
	err = c.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}, exec)
	if apierrors.IsNotFound(err) {
		return hints, deadEnds, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("get execution of %s/%s: %w", inst.Namespace, inst.Name, err)
	}
	if h := landscaperObjectSizeHint("Execution", exec.Namespace, exec.Name, exec.Status.LastError); h != "" {
		hints = append(hints, h)
	}
	dis, err := itemsOf(ctx, c, exec)
	if err != nil {
		return nil, nil, err
	}
	h2, err := itemHints(ctx, c, sims, inst, dis)
	if err != nil {
		return nil, nil, err
	}
	hints = append(hints, h2...)
	if root.DeletionTimestamp != nil {
		deadEnds = append(deadEnds, deletionDeadEnds(dis, root.Name)...) // hints_deadend.go
		held, err := finalizerDeadEnds(ctx, c, sims, dis, root.Name)     // hints_finalizer.go
		if err != nil {
			return nil, nil, err
		}
		deadEnds = append(deadEnds, held...)
	}
	return hints, deadEnds, nil
}

// itemHints are the hints about deploy items dis, of installation inst (nil
// for stand-alone items and the items of a stand-alone Execution).
func itemHints(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, inst *lsv1alpha1.Installation,
	dis []lsv1alpha1.DeployItem) ([]string, error) {
	var hints []string
	for i := range dis {
		mutated, err := mutatedFieldHint(ctx, c, sims, &dis[i]) // hints_mutating.go, in place of the cleared field's
		if err != nil {
			return nil, err
		}
		if mutated == "" {
			mutated = endpointsHint(&dis[i]) // hints_endpoints.go, in place of the timeout's
		}
		if mutated == "" {
			mutated = timeoutHint(&dis[i], describeTarget(ctx, c))
		}
		if mutated != "" {
			hints = append(hints, mutated)
		}
		if h := atomicHint(&dis[i]); h != "" {
			hints = append(hints, h)
		}
		if h := ownershipHint(&dis[i]); h != "" {
			hints = append(hints, h)
		}
		if h := otherReleaseHint(&dis[i], dis); h != "" { // hints_otherrelease.go
			hints = append(hints, h)
		}
		if h := boundClaimHint(&dis[i]); h != "" { // hints_boundclaim.go
			hints = append(hints, h)
		}
		if h := invalidHookHint(&dis[i]); h != "" { // hints_hookinvalid.go
			hints = append(hints, h)
		}
		if h := claimTemplatesHint(&dis[i]); h != "" { // hints_claimtemplates.go
			hints = append(hints, h)
		}
		if h := nodePortRangeHint(&dis[i]); h != "" { // hints_nodeport.go
			hints = append(hints, h)
		}
		if h := immutableFieldHint(&dis[i]); h != "" { // hints_immutable.go
			hints = append(hints, h)
		}
		if h := resizeHint(&dis[i]); h != "" { // hints_resize.go
			hints = append(hints, h)
		}
		if h := objectSizeHint(&dis[i]); h != "" { // hints_objsize.go
			hints = append(hints, h)
		}
		if h := droppedTimeoutHint(&dis[i]); h != "" { // hints_droppedtimeout.go
			hints = append(hints, h)
		}
		if h := ttlJobHint(&dis[i]); h != "" { // hints_ttljob.go
			hints = append(hints, h)
		}
		pending, err := claimPendingHint(ctx, c, sims, &dis[i]) // hints_claimpending.go
		if err != nil {
			return nil, err
		}
		if pending != "" {
			hints = append(hints, pending)
		}
		noNS, err := noNamespaceHint(ctx, c, sims, &dis[i]) // hints_nonamespace.go
		if err != nil {
			return nil, err
		}
		if noNS != "" {
			hints = append(hints, noNS)
		}
		h, err := workloadHint(ctx, c, sims, &dis[i])
		if err != nil {
			return nil, err
		}
		if h != "" {
			hints = append(hints, h)
		}
		ignored, err := ignoredNeedHint(ctx, c, sims, &dis[i]) // hints_ignored.go, after what the pods wait for
		if err != nil {
			return nil, err
		}
		if ignored != "" {
			hints = append(hints, ignored)
		}
		if h := omittedZeroHint(&dis[i]); h != "" { // hints_omitempty.go, after why the pods do not run
			hints = append(hints, h)
		}
	}
	for i := range dis {
		h := webhookHint(&dis[i]) // hints_webhook.go: a later error than an unserved kind's
		if h == "" {
			h = conversionHint(&dis[i]) // hints_crdconversion.go, likewise
		}
		if h == "" {
			h = policyHint(&dis[i]) // hints_policy.go
		}
		var err error
		if h == "" {
			h, err = unservedVersionHint(ctx, c, sims, &dis[i])
		}
		if err != nil {
			return nil, err
		}
		if h == "" {
			h = unservedKindHint(&dis[i])
		}
		if h != "" {
			hints = append(hints, h)
		}
		if h := releaseTooLargeHint(&dis[i]); h != "" {
			hints = append(hints, h)
		}
	}
	for i := range dis {
		h, err := pickupHint(ctx, c, &dis[i])
		if err != nil {
			return nil, err
		}
		if h != "" {
			hints = append(hints, h)
		}
		if h := namespaceHint(&dis[i]); h != "" {
			hints = append(hints, h)
		}
		if inst == nil {
			continue
		}
		if h := fakedExportsHint(inst, &dis[i]); h != "" {
			hints = append(hints, h)
		}
	}
	return hints, nil
}

// unservedKind matches the manifest deployer's errors for a kind its target
// cluster does not serve (Landscaper's ApiResourceHandler): the group
// version, or the group version and kind.
var unservedKind = regexp.MustCompile(`unable to get api resources for (\S+): the server could not find the requested resource|unable to get apiresource for ([^"]+?)(?:$|: )`)

// unservedReleaseKind matches helm's error for a release whose manifest has
// a kind its cluster does not serve (helm's kube client maps every object
// before it installs or upgrades: "resource mapping not found ... no
// matches for kind"), which Landscaper's helm deployer passes on.
var unservedReleaseKind = regexp.MustCompile(`no matches for kind "([^"]+)" in version "([^"]+)"`)

// unservedKindHint says, for a deploy item that failed because its target
// cluster does not serve a kind it applies, where that kind comes from: on a
// real cluster a CRD or an aggregated API server (Gardener's core.gardener.cloud
// is gardener-apiserver's) serves it, a simulated cluster serves only the
// built-in kinds and the CRDs it was given. It is empty for other items.
func unservedKindHint(di *lsv1alpha1.DeployItem) string {
	var what string
	if m := failedItemMatch(di, unservedKind); m != nil {
		what = m[1] + m[2]
	} else if m := failedItemMatch(di, unservedReleaseKind); m != nil {
		what = m[2] + ", Kind=" + m[1]
	} else {
		return ""
	}
	target := itemTarget(di)
	if h := removedVersionHint(di, what, target); h != "" {
		return h
	}
	return fmt.Sprintf("DeployItem %s/%s: its target cluster (%s) does not serve %s: a real cluster serves it once "+
		"its CustomResourceDefinition is installed or its API server runs; if that cluster is simulated, seed a "+
		"CustomResourceDefinition for each kind of it the item applies (simulatedCluster.seeds in the config file, "+
		"see docs/deployers.md), or install it in an item this one depends on", di.Namespace, di.Name, target, what)
}

// releaseTooLarge matches kube-apiserver's refusal of a helm release
// record (a Secret of helm's storage) larger than a Secret may be, as
// helm's install or upgrade passes it on: the release and the revision.
var releaseTooLarge = regexp.MustCompile(`Secret "sh\.helm\.release\.v1\.(.+)\.v(\d+)" is invalid: data: Too long`)

// releaseTooLargeHint says, for a helm item whose release record was
// refused as too large, what makes it large and what to do: helm keeps each
// revision in a Secret, the chart with every file gzipped, and the API
// server takes at most 1 MiB of data in one. It is empty for other items.
func releaseTooLargeHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, releaseTooLarge)
	if m == nil {
		return ""
	}
	return fmt.Sprintf("DeployItem %s/%s: the record of revision %s of helm release %q is larger than a Secret may be "+
		"(1 MiB of data), so helm stopped before it created anything; on a real cluster too: helm keeps each revision "+
		"in a Secret, the chart gzipped with every file in it (crds/ and files the templates never read included). "+
		"Leave what the templates do not need out of the chart with .helmignore, or split the chart",
		di.Namespace, di.Name, m[2], m[1])
}

// resourceNotFound matches Landscaper's error for getResource or getResources
// finding nothing, which says only "NotFound".
var resourceNotFound = regexp.MustCompile(`at <(getResources? [^>]*)>: error calling getResources?: NotFound`)

// formerFunc matches text/template's parse error for a function it does not
// know.
var formerFunc = regexp.MustCompile(`function "([^"]+)" not defined`)

// outputYAMLLine matches Landscaper's error for a GoTemplate output that is
// not YAML (gotemplate.go decodes it for its state first), which names the
// line of an output the status does not show.
var outputYAMLLine = regexp.MustCompile(`error converting YAML to JSON: yaml: line (\d+): ([^\n]*)`)

// templateHint says, for an installation whose template called a function
// Landscaper removed (resolve, which blueprints of older projects call), what
// to call instead, for one whose template rendered an output that is not
// YAML, how to see the lines, and for one whose getResource found nothing,
// where to see what: the lastError is Landscaper's, which says none of it.
// It is empty otherwise. Where explained (may be nil) has lscli's text of
// the lastError, which the report shows and which names the function's
// replacement, and the component and what getResource looked for, only
// the hint for an output that is not YAML is left.
func templateHint(inst *lsv1alpha1.Installation, explained *reconcile.Explanations) string {
	le := inst.Status.LastError
	if le == nil {
		return ""
	}
	if m := outputYAMLLine.FindStringSubmatch(le.Message); m != nil {
		return fmt.Sprintf("Installation %s/%s: a template's rendered output is not valid YAML at line %s (%s): "+
			"'lscli render' shows the lines around it", inst.Namespace, inst.Name, m[1], m[2])
	}
	key := types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}
	if explained.Lookup("Installation", key, inst.Status.JobID, le.Message) != "" {
		return ""
	}
	if m := resourceNotFound.FindStringSubmatch(le.Message); m != nil {
		return fmt.Sprintf("Installation %s/%s: %s found no resource (\"NotFound\" is Landscaper's message): "+
			"'lscli render' names the component and what was looked for", inst.Namespace, inst.Name, m[1])
	}
	m := formerFunc.FindStringSubmatch(le.Message)
	if m == nil || template.FormerFunc(m[1]) == "" {
		return ""
	}
	return fmt.Sprintf("Installation %s/%s: %s: %s", inst.Namespace, inst.Name, m[0], template.FormerFunc(m[1]))
}

// configMapKeyMissing is Landscaper's error for a configMapRef import whose
// key is not in the ConfigMap (controller-utils/pkg/landscaper/references.go,
// ResolveConfigMapReference).
var configMapKeyMissing = regexp.MustCompile(`^key '([^']*)' in configmap '([^'/]*)/([^']*)' does not exist$`)

// configMapKeyHint says, for an installation whose import failed because a
// key is missing from a ConfigMap that has it in data but also has
// binaryData, that Landscaper then reads the keys of binaryData only (its
// binaryData lookup replaces the data one): the key is there to a reader of
// the ConfigMap, not to Landscaper. It is empty otherwise.
func configMapKeyHint(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) (string, error) {
	le := inst.Status.LastError
	if le == nil {
		return "", nil
	}
	m := configMapKeyMissing.FindStringSubmatch(le.Message)
	if m == nil {
		return "", nil
	}
	cm := &corev1.ConfigMap{}
	err := c.Get(ctx, types.NamespacedName{Namespace: m[2], Name: m[3]}, cm)
	if apierrors.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("get configmap of installation %s/%s: %w", inst.Namespace, inst.Name, err)
	}
	if _, inData := cm.Data[m[1]]; !inData || len(cm.BinaryData) == 0 {
		return "", nil
	}
	binary := make([]string, 0, len(cm.BinaryData))
	for k := range cm.BinaryData {
		binary = append(binary, k)
	}
	sort.Strings(binary)
	return fmt.Sprintf("Installation %s/%s: ConfigMap %s/%s has the key %s in data, but it has binaryData too, and "+
		"Landscaper then reads the keys of binaryData only: move the keys of binaryData (%s) to data, or all keys to binaryData",
		inst.Namespace, inst.Name, cm.Namespace, cm.Name, m[1], strings.Join(binary, ", ")), nil
}

// targetOf returns the Target di names, or nil when it does not exist.
func targetOf(ctx context.Context, c *fakecluster.Cluster, di *lsv1alpha1.DeployItem) (*lsv1alpha1.Target, error) {
	ns := di.Spec.Target.Namespace
	if ns == "" {
		ns = di.Namespace
	}
	target := &lsv1alpha1.Target{}
	err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: di.Spec.Target.Name}, target)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get target of deploy item %s/%s: %w", di.Namespace, di.Name, err)
	}
	return target, nil
}

// pickupHint says, for a deploy item that failed because no deployer picked
// it up in time, when the reason is its Target: a Target whose
// spec.secretRef names a Secret or key that does not exist cannot be
// resolved, and Landscaper's deployer library resolves the Target before it
// looks at the item (pkg/deployer/lib/utils.go,
// checkTargetResponsibilityAndResolve), so no deployer ever picks it up.
// That error is only in the deployer's log; the item shows just the pickup
// timeout. It is empty for other items.
func pickupHint(ctx context.Context, c *fakecluster.Cluster, di *lsv1alpha1.DeployItem) (string, error) {
	le := di.Status.LastError
	if le == nil || le.Reason != lsv1alpha1.PickupTimeoutReason || di.Spec.Target == nil {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	ref := target.Spec.SecretRef
	if ref == nil {
		return "", nil
	}
	if _, err := realcluster.TargetContent(ctx, target, c); err != nil {
		what := "the Secret " + ref.Name
		if ref.Key != "" {
			what += " with the key " + ref.Key
		}
		return fmt.Sprintf("DeployItem %s/%s: no deployer picked it up because none could resolve its Target %s/%s: %v. "+
			"Create %s (spec.secretRef): Landscaper's deployers resolve the Target before they pick an item up",
			di.Namespace, di.Name, target.Namespace, target.Name, err, what), nil
	}
	return "", nil
}

// namespaceNotFound is the API server's error for an object whose namespace
// does not exist, as the helm and manifest deployers pass it on.
var namespaceNotFound = regexp.MustCompile(`namespaces "([^"]+)" not found`)

// namespaceHint says, for a deploy item that failed because a namespace its
// objects go to is not on its target cluster, where that namespace may come
// from: a real cluster often has it (the namespace of the installations, a
// platform team's), a new simulated cluster has only the system namespaces.
// It is empty for other items.
func namespaceHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, namespaceNotFound)
	if m == nil {
		return ""
	}
	target := itemTarget(di)
	return fmt.Sprintf("DeployItem %s/%s: namespace %q is not on its target cluster (%s): a real cluster may have it; "+
		"if it should be there before the item runs, seed it (simulatedCluster.seeds in the config file, see "+
		"docs/deployers.md), else create it in the item (helm: createNamespace: true) or in an item it depends on",
		di.Namespace, di.Name, m[1], target)
}

// servedTypes are the deploy item types lscli runs a deployer for; it fakes
// items of any other type (unless a rule says otherwise), and a faked item
// exports only what a fake rule gives it.
var servedTypes = map[lsv1alpha1.DeployItemType]bool{
	"landscaper.gardener.cloud/helm":                true,
	"landscaper.gardener.cloud/kubernetes-manifest": true,
	"landscaper.gardener.cloud/mock":                true,
}

// exportsFailedReason is the reason of an installation's lastError when its
// export executions failed (Landscaper's handlePhaseCompleting).
const exportsFailedReason = "ConstructExports"

// fakedExportsHint says, for an installation whose export execution failed,
// that di, a deploy item of a type no deployer of lscli serves (the
// container deployer's, say), succeeded without exports, and how to give the
// exports the real deployer would have written: the export execution most
// likely failed reading them. It is empty otherwise.
func fakedExportsHint(inst *lsv1alpha1.Installation, di *lsv1alpha1.DeployItem) string {
	le := inst.Status.LastError
	if le == nil || le.Reason != exportsFailedReason || servedTypes[di.Spec.Type] ||
		di.Status.Phase != lsv1alpha1.DeployItemPhases.Succeeded || di.Status.ExportReference != nil {
		return ""
	}
	name := di.Labels[lsv1alpha1.ExecutionManagedNameLabel]
	if name == "" {
		name = di.Name
	}
	return fmt.Sprintf("Installation %s/%s: its export execution failed reading the exports of DeployItem %s/%s "+
		"(its name in the blueprint: %s), of type %s, which lscli faked without exports: give the exports the real "+
		"deployer would write in a fake rule of the config file, e.g. fake: {rules: [{match: {type: %s, name: %s}, "+
		"exports: {...}}]} (docs/deployers.md)", inst.Namespace, inst.Name, di.Namespace, di.Name, name, di.Spec.Type,
		di.Spec.Type, name)
}

// failedItemMatch returns re's submatches in the lastError or else the
// firstError message of di when di has failed, nil otherwise.
func failedItemMatch(di *lsv1alpha1.DeployItem, re *regexp.Regexp) []string {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return nil
	}
	m, _ := errorMatch(di, re)
	return m
}

// errorMatch returns re's submatches in the lastError or else the
// firstError message of di, whatever its phase, and that message; nil
// when neither matches.
func errorMatch(di *lsv1alpha1.DeployItem, re *regexp.Regexp) (m []string, msg string) {
	for _, e := range []*lsv1alpha1.Error{di.Status.LastError, di.Status.FirstError} {
		if e == nil {
			continue
		}
		if m := re.FindStringSubmatch(e.Message); m != nil {
			return m, e.Message
		}
	}
	return nil, ""
}

// itemTarget names di's Target for a hint: "Target NS/NAME", or "its
// Target" for an item without one.
func itemTarget(di *lsv1alpha1.DeployItem) string {
	if t := di.Spec.Target; t != nil {
		return fmt.Sprintf("Target %s/%s", t.Namespace, t.Name)
	}
	return "its Target"
}
