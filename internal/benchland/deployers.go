package benchland

import (
	"fmt"
	"os"
	"path/filepath"
)

// Deployers is N root installations that deploy with lscli's real deployers
// to one simulated cluster, as a project that rolls one component out many
// times does: each has a helm deploy item (a release of a local chart, all
// releases in one namespace) and a manifest deploy item (a CRD of its own
// and a ConfigMap in that namespace). Its lscli.yaml maps the chart and
// seeds the namespace.
var Deployers = Shape{Name: "deployers", InstallationsPerRoot: 1, DeployItemsPerRoot: 2, root: deployersRoot, files: deployersFiles}

// deployersFiles writes the Target, the chart, the seed and lscli.yaml.
func deployersFiles(dir string) error {
	files := map[string]string{
		"target.yaml": `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: cluster, namespace: bench}
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
  config: {kubeconfig: not read by the simulated cluster}
`,
		"lscli.yaml": `charts:
  registry.example/charts/app: charts/app
simulatedCluster:
  seeds:
  - target: bench/cluster
    files: [seed/namespace.json]
`,
		"seed/namespace.json":    `{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "apps"}}` + "\n",
		"charts/app/Chart.yaml":  "apiVersion: v2\nname: app\nversion: 1.0.0\n",
		"charts/app/values.yaml": "replicas: 1\nport: 80\n",
		"charts/app/templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}, labels: {app: {{ .Release.Name }}}}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: {{ .Release.Name }}}}
  template:
    metadata: {labels: {app: {{ .Release.Name }}}}
    spec:
      containers: [{name: app, image: nginx, ports: [{containerPort: {{ .Values.port }}}]}]
`,
		"charts/app/templates/service.yaml": `apiVersion: v1
kind: Service
metadata: {name: {{ .Release.Name }}}
spec:
  selector: {app: {{ .Release.Name }}}
  ports: [{port: {{ .Values.port }}}]
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

// deployersRoot is root i of the deployers shape.
func deployersRoot(i int) string {
	return inlineRoot(RootName(i), "  imports:\n    targets:\n    - {name: cluster, target: cluster}\n", fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: cluster, type: target, targetType: landscaper.gardener.cloud/kubernetes-cluster}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: release
      type: landscaper.gardener.cloud/helm
      target: {import: cluster}
      config:
        apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
        kind: ProviderConfiguration
        name: %[1]s
        namespace: apps
        chart: {ref: "registry.example/charts/app:1.0.0"}
        values: {port: 8080}
    - name: manifests
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        updateStrategy: update
        manifests:
        - policy: manage
          manifest:
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.g%[2]d.example.com}
            spec:
              group: g%[2]d.example.com
              scope: Namespaced
              names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
              versions:
              - name: v1
                served: true
                storage: true
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
        - policy: manage
          manifest:
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: %[1]s, namespace: apps}
            data: {root: "%[2]d"}
`, RootName(i), i))
}
