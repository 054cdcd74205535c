package helm

import (
	"context"
	"fmt"
	"slices"

	"github.com/lscli/lscli/internal/rbacrules"
	"helm.sh/helm/v3/pkg/chart"
	batchv1 "k8s.io/api/batch/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// helm installs the CRDs of a chart's crds/ folder on install and never
// touches them again (no upgrade, no deletion). Charts whose CRDs change
// with the application ship a hook Job that applies them on every
// upgrade: Velero's velero-upgrade-crds (pre-install, pre-upgrade,
// pre-rollback) runs `velero install --crds-only --apply`, which applies
// the CRDs compiled into the velero image of the chart's version, the same
// the chart keeps in its crds/ folder. Such a Job's ServiceAccount is bound
// by a ClusterRoleBinding to a ClusterRole that may create and update
// CRDs. A simulated cluster runs no containers: without more, the Job
// completes and the cluster keeps the CRDs of the first install, so a
// custom resource's fields that only the new CRDs know are pruned.
//
// So on a simulated cluster a hook Job of an install or upgrade that
// completes, whose ServiceAccount may create and update (or patch)
// customresourcedefinitions cluster-wide by a rule that names them (not
// by wildcards only), and whose chart has a crds/
// folder, is taken to have applied the CRDs of that folder (its subcharts'
// too, as helm's CRDObjects lists them), with server-side apply under the
// Job's name as field manager. A Job that applies CRDs from elsewhere (a
// URL, another image) is not known: seed those CRDs, or give the Job a
// rule. A rollback's Job would apply the CRDs of the version rolled back
// to; it is not simulated.

// crdWrites are the permissions a hook Job's ServiceAccount needs to be
// taken to apply CRDs: create, and update or patch.
var crdWrites = []rbacv1.PolicyRule{
	{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, Verbs: []string{"create", "update"}},
	{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, Verbs: []string{"create", "patch"}},
}

// hookJobAppliesCRDs applies the chart's CRDs (crds) as job, a completed
// hook Job, is taken to have applied them (see above), on a simulated
// cluster; else it does nothing. The error is the apply's, as the Job's
// container would have failed.
func (k *kubeClient) hookJobAppliesCRDs(ctx context.Context, job *batchv1.Job) error {
	if k.real || len(k.chartCRDs) == 0 || (k.rollingBack != nil && k.rollingBack()) {
		return nil
	}
	sa := job.Spec.Template.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	may, err := clusterWideMay(ctx, k.c, job.Namespace, sa)
	if err != nil || !may {
		return err
	}
	for _, crd := range k.chartCRDs {
		if crd.File == nil {
			continue
		}
		docs, err := decodeDocuments(string(crd.File.Data))
		if err != nil {
			return fmt.Errorf("job %s: decode %s: %w", job.Name, crd.Filename, err)
		}
		for _, u := range docs {
			if u.GetKind() != "CustomResourceDefinition" {
				continue
			}
			if _, err := k.applyAs(ctx, u, job.Name); err != nil {
				return fmt.Errorf("job %s: %w", job.Name, err)
			}
		}
	}
	return nil
}

// clusterWideMay reports whether ServiceAccount ns/sa may create and
// update (or patch) CRDs by the ClusterRoles the cluster's
// ClusterRoleBindings bind it to (a RoleBinding grants nothing on a
// cluster-scoped kind), by rules that name customresourcedefinitions: a
// Job bound to cluster-admin for another task (a database migration) is
// not taken to apply CRDs.
func clusterWideMay(ctx context.Context, c client.Client, ns, sa string) (bool, error) {
	granted, err := rbacrules.ServiceAccount(ctx, c, ns, sa, true)
	if err != nil {
		return false, err
	}
	var rules []rbacv1.PolicyRule
	for _, r := range granted {
		if slices.Contains(r.Resources, "customresourcedefinitions") {
			rules = append(rules, r)
		}
	}
	for _, w := range crdWrites {
		if ok, _ := validation.Covers(rules, []rbacv1.PolicyRule{w}); ok {
			return true, nil
		}
	}
	return false, nil
}

// chartCRDsOf are the CRD files of ch's crds/ folders, its subcharts'
// too.
func chartCRDsOf(ch *chart.Chart) []chart.CRD {
	if ch == nil {
		return nil
	}
	return ch.CRDObjects()
}
