package dryrun

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/apilimits"
	"github.com/lscli/lscli/reconcile"
)

// helmType is the deploy item type of Landscaper's helm deployer.
const helmType = "landscaper.gardener.cloud/helm"

// ConfigCheck is a deployer's check of a deploy item's configuration,
// which fails the item in Landscaper. Its error is the item's lastError.
type ConfigCheck struct {
	// Deployer names the deployer in messages, e.g. "helm".
	Deployer string
	// Check decodes and validates item's configuration; its error fails the
	// item.
	Check func(item *lsv1alpha1.DeployItem) error
}

// checkItems checks the configurations of inst's deploy items with
// Render.ConfigChecks, and the chart.resourceRef of its helm deploy items
// with Render.ChartCheck; a configuration the deployer would refuse, and a
// chart that is not found locally, are problems (the chart only of items
// whose configuration passed).
func (w *walker) checkItems(ctx context.Context, inst *lsv1alpha1.Installation, items lsv1alpha1.DeployItemTemplateList) {
	passed := make(lsv1alpha1.DeployItemTemplateList, 0, len(items))
	for _, di := range items {
		if msgs := itemObjectProblems(inst, di.Name); len(msgs) > 0 {
			w.problem(fmt.Errorf("installation %s/%s: deploy item %q: the API server would refuse its DeployItem (the Execution fails): %s",
				inst.Namespace, inst.Name, di.Name, strings.Join(msgs, "; ")))
			continue
		}
		item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: inst.Namespace, Name: di.Name}}
		item.Spec.Type, item.Spec.Configuration = di.Type, di.Configuration
		if n, tooLarge := fakecluster.TooLargeToStore(lsv1alpha1.SchemeGroupVersion.WithKind("DeployItem"), item); tooLarge {
			w.problem(fmt.Errorf("installation %s/%s: deploy item %q: the API server would refuse its DeployItem (the Execution "+
				"fails): etcdserver: request is too large (its configuration makes %d bytes of JSON, and etcd stores at most %d "+
				"in one write: split the manifests over several deploy items, or take large files from a helm chart)",
				inst.Namespace, inst.Name, di.Name, n, apilimits.EtcdMaxRequestBytes))
			continue
		}
		if check, ok := w.r.ConfigChecks[di.Type]; ok {
			if err := check.Check(item); err != nil {
				w.problem(fmt.Errorf("installation %s/%s: deploy item %q: the %s deployer fails it: %s",
					inst.Namespace, inst.Name, di.Name, check.Deployer, configMessage(err)))
				continue
			}
		}
		passed = append(passed, di)
	}
	w.checkCharts(ctx, inst, passed)
}

// configMessage is the reason and message of the lastError a deployer's
// configuration error gives the item, without the "Op: ... - Reason: ..."
// of its text.
func configMessage(err error) string {
	le := reconcile.LastError(nil, err, "", "", time.Time{})
	if le.Reason == "" {
		return le.Message
	}
	return le.Reason + ": " + le.Message
}

// checkCharts checks the charts of inst's helm deploy items (resourceRef,
// ref, helmChartRepo) with Render.ChartCheck; a chart that is not found
// locally is a problem.
func (w *walker) checkCharts(ctx context.Context, inst *lsv1alpha1.Installation, items lsv1alpha1.DeployItemTemplateList) {
	if w.r.ChartCheck == nil {
		return
	}
	for _, di := range items {
		if di.Type != helmType || di.Configuration == nil {
			continue
		}
		var cfg struct {
			Chart helmv1alpha1.Chart `json:"chart"`
		}
		if json.Unmarshal(di.Configuration.Raw, &cfg) != nil {
			continue
		}
		item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: inst.Namespace, Name: di.Name,
			OwnerReferences: []metav1.OwnerReference{{Kind: "Execution", Name: inst.Name}}}}
		item.Spec.Context = inst.Spec.Context
		if err := w.r.ChartCheck(ctx, w.c, item, cfg.Chart); err != nil {
			w.problem(err)
		}
	}
}

// itemObjectProblems is what the API server says of the DeployItem the
// execution of inst creates for the rendered item name: generateName
// "<execution>-<name>-" must make a DNS subdomain, and the label
// execution.landscaper.gardener.cloud/name holds the name as a label value.
func itemObjectProblems(inst *lsv1alpha1.Installation, name string) []string {
	var msgs []string
	for _, m := range apivalidation.NameIsDNSSubdomain(inst.Name+"-"+name+"-", true) {
		msgs = append(msgs, "metadata.generateName: "+m)
	}
	for _, m := range validation.IsValidLabelValue(name) {
		msgs = append(msgs, "metadata.labels["+lsv1alpha1.ExecutionManagedNameLabel+"]: "+m)
	}
	return msgs
}
