package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// crdJobChart is a chart of version with a CRD in crds/ whose schema knows
// the given spec fields, and Velero's upgrade-crds hooks: a ClusterRole
// with verbs on customresourcedefinitions, its ServiceAccount and binding,
// and the Job that runs as that ServiceAccount.
func crdJobChart(version string, fields []string, rule string) *chart.Chart {
	props := ""
	for _, f := range fields {
		props += "              " + f + ": {type: string}\n"
	}
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: locations.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Location, plural: locations, singular: location, listKind: LocationList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
` + props
	hook := func(weight string) string {
		return `  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "` + weight + `"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
`
	}
	hooks := `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: upgrade-crds
` + hook("-5") + `rules:
- ` + rule + `
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: upgrade-crds
` + hook("-4") + `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: upgrade-crds
` + hook("-3") + `subjects: [{kind: ServiceAccount, name: upgrade-crds, namespace: default}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: upgrade-crds}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: upgrade-crds
` + hook("5") + `spec:
  template:
    spec:
      serviceAccountName: upgrade-crds
      restartPolicy: OnFailure
      containers: [{name: velero, image: velero/velero, command: [/velero], args: [install, --crds-only, --apply]}]
`
	return &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "app", Version: version},
		Templates: []*chart.File{{Name: "templates/upgrade-crds.yaml", Data: []byte(hooks)}},
		Files:     []*chart.File{{Name: "crds/locations.yaml", Data: []byte(crd)}}}
}

// TestHookJobAppliesChartCRDs: helm upgrades no CRD of crds/; a pre-upgrade
// hook Job whose ServiceAccount may create and update CRDs is taken to
// apply the new chart's, as Velero's upgrade-crds Job does on a real
// cluster, so the CRD knows the new field after the upgrade. A Job that
// may not write CRDs, or only by wildcards (cluster-admin's rule, given to
// a Job for another task), leaves the CRD of the first install.
func TestHookJobAppliesChartCRDs(t *testing.T) {
	crds := "{apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: VERBS}"
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{strings.Replace(crds, "VERBS", "[create, patch, update, get, list]", 1), true},
		{strings.Replace(crds, "VERBS", "[create, patch]", 1), true},
		{strings.Replace(crds, "VERBS", "[get, list]", 1), false},
		{`{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}`, false},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			ctx := context.Background()
			clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
			c, err := clusters.ForTarget(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "sim"}})
			if err != nil {
				t.Fatal(err)
			}
			pc := &helmv1alpha1.ProviderConfiguration{Name: "app", Namespace: "default"}
			for _, ch := range []*chart.Chart{crdJobChart("1.0.0", []string{"bucket"}, tc.rule), crdJobChart("2.0.0", []string{"bucket", "caCertRef"}, tc.rule)} {
				r := newReleaser(ctx, c, false, "app", "default", chartutil.DefaultCapabilities.Copy(), epoch)
				if rel, err := r.deploy(ctx, pc, ch, map[string]any{}, 10*time.Minute, false, false); err != nil || rel == nil {
					t.Fatalf("chart %s: release %v, err %v", ch.Metadata.Version, rel, err)
				}
			}
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := c.Get(ctx, client.ObjectKey{Name: "locations.example.com"}, crd); err != nil {
				t.Fatal(err)
			}
			_, got := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["caCertRef"]
			if got != tc.want {
				t.Errorf("CRD after the upgrade knows caCertRef: %v, want %v", got, tc.want)
			}
			if tc.want && !strings.Contains(managers(crd.ManagedFields), "upgrade-crds") {
				t.Errorf("field managers %s, want the Job's", managers(crd.ManagedFields))
			}
		})
	}
}

// managers lists the field managers of fields.
func managers(fields []metav1.ManagedFieldsEntry) string {
	var out []string
	for _, f := range fields {
		out = append(out, f.Manager)
	}
	return strings.Join(out, ",")
}
