package dryrun

import (
	"context"
	"encoding/json"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// helmType is the deploy item type of Landscaper's helm deployer.
const helmType = "landscaper.gardener.cloud/helm"

// checkCharts checks the chart.resourceRef of inst's helm deploy items
// with Render.ChartCheck; a chart that is not found locally is a problem.
func (w *walker) checkCharts(ctx context.Context, inst *lsv1alpha1.Installation, items lsv1alpha1.DeployItemTemplateList) {
	if w.r.ChartCheck == nil {
		return
	}
	for _, di := range items {
		if di.Type != helmType || di.Configuration == nil {
			continue
		}
		var cfg struct {
			Chart struct {
				ResourceRef string `json:"resourceRef"`
			} `json:"chart"`
		}
		if json.Unmarshal(di.Configuration.Raw, &cfg) != nil || cfg.Chart.ResourceRef == "" {
			continue
		}
		item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: inst.Namespace, Name: di.Name,
			OwnerReferences: []metav1.OwnerReference{{Kind: "Execution", Name: inst.Name}}}}
		item.Spec.Context = inst.Spec.Context
		if err := w.r.ChartCheck(ctx, w.c, item, cfg.Chart.ResourceRef); err != nil {
			w.problem(err)
		}
	}
}
