package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
)

// fuzzReconcileConfig runs manifest items with the real deployer against a
// simulated cluster that has the namespace the seeds deploy into.
const fuzzReconcileConfig = `deployers: {landscaper.gardener.cloud/kubernetes-manifest: real}
simulatedCluster:
  seeds:
  - target: example/my-cluster
    files: [ns.yaml]
`

// fuzzReconcileSeeds are landscapes of one file each: inline blueprints with
// GoTemplate and Spiff executions, data flow, subinstallations, manifest
// items with exports, and a Target.
var fuzzReconcileSeeds = []string{
	`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: demo, namespace: example}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          exports:
          - {name: greeting, type: data, schema: {type: string}}
          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems:
              - name: database
                type: landscaper.gardener.cloud/mock
                config:
                  apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
                  kind: ProviderConfiguration
                  providerStatus: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderStatus, ready: true}
              - name: app
                type: landscaper.gardener.cloud/mock
                dependsOn: [database]
                timeout: 2m
                config:
                  apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
                  kind: ProviderConfiguration
                  export: {greeting: hello}
          exportExecutions:
          - name: main
            type: GoTemplate
            template: |
              exports:
                greeting: {{ index .values.deployitems.app "greeting" }}
  exports:
    data:
    - {name: greeting, dataRef: greeting}
`,
	`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: web-config, namespace: example}
data: {name: web, domain: example.com, replicas: 2}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: web, namespace: example}
spec:
  imports:
    data:
    - {name: config, dataRef: web-config}
  importDataMappings:
    host: (( config.name "." config.domain ))
    replicas: (( config.replicas * 2 ))
  exports:
    data:
    - {name: url, dataRef: web-url}
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          imports:
          - {name: host, type: data, schema: {type: string}}
          - {name: replicas, type: data, schema: {type: integer, minimum: 1}}
          exports:
          - {name: url, type: data, schema: {type: string}}
          deployExecutions:
          - name: main
            type: Spiff
            file: /deploy-execution.yaml
          exportExecutions:
          - name: main
            type: Spiff
            template:
              exports:
                url: (( values.deployitems.server.url ))
        deploy-execution.yaml: |
          deployItems:
          - name: server
            type: landscaper.gardener.cloud/mock
            config:
              apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
              kind: ProviderConfiguration
              providerStatus: {replicas: (( imports.replicas ))}
              export:
                url: (( "https://" imports.host ))
`,
	`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: my-cluster, namespace: example}
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
  config: {kubeconfig: placeholder}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: root, namespace: example}
spec:
  imports:
    targets:
    - {name: cluster, target: my-cluster}
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          imports:
          - {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
          subinstallations:
          - apiVersion: landscaper.gardener.cloud/v1alpha1
            kind: InstallationTemplate
            name: producer
            imports:
              targets:
              - {name: cluster, target: cluster}
            exports:
              data:
              - {name: data, dataRef: shared}
            blueprint:
              filesystem:
                blueprint.yaml: |
                  apiVersion: landscaper.gardener.cloud/v1alpha1
                  kind: Blueprint
                  imports:
                  - {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
                  exports:
                  - {name: data, type: data, schema: {type: object}}
                  deployExecutions:
                  - name: main
                    type: GoTemplate
                    template: |
                      deployItems:
                      - name: cm
                        type: landscaper.gardener.cloud/kubernetes-manifest
                        target: {import: cluster}
                        config:
                          apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
                          kind: ProviderConfiguration
                          updateStrategy: update
                          manifests:
                          - policy: manage
                            manifest:
                              apiVersion: v1
                              kind: ConfigMap
                              metadata: {name: test, namespace: example}
                              data: {foo: bar}
                          exports:
                            exports:
                            - key: data
                              jsonPath: .data
                              fromResource: {apiVersion: v1, kind: ConfigMap, name: test, namespace: example}
                  exportExecutions:
                  - name: main
                    type: GoTemplate
                    template: |
                      exports:
                        data: {{ .deployitems.cm.data | toJson }}
          - apiVersion: landscaper.gardener.cloud/v1alpha1
            kind: InstallationTemplate
            name: consumer
            imports:
              data:
              - {name: data, dataRef: shared}
            blueprint:
              filesystem:
                blueprint.yaml: |
                  apiVersion: landscaper.gardener.cloud/v1alpha1
                  kind: Blueprint
                  imports:
                  - {name: data, type: data, schema: {type: object}}
                  deployExecutions:
                  - name: main
                    type: GoTemplate
                    template: |
                      deployItems:
                      - name: echo
                        type: landscaper.gardener.cloud/mock
                        config:
                          apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
                          kind: ProviderConfiguration
                          providerStatus: {{ .imports.data | toJson }}
`,
}

// FuzzReconcile reconciles landscapes of any content, then reconciles the
// saved state again with --all: every run ends in one of lscli's exit codes
// for input and outcomes (0, 2, 3, 4), never in a panic or exit 1; a
// landscape refused as invalid (exit 2) leaves no state behind, and a state
// lscli saved is never invalid input to the next reconcile.
func FuzzReconcile(f *testing.F) {
	for _, s := range fuzzReconcileSeeds {
		f.Add(s)
	}
	base := f.TempDir()
	if err := os.WriteFile(filepath.Join(base, "lscli.yaml"), []byte(fuzzReconcileConfig), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "ns.yaml"), []byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: example}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, landscape string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "landscape.yaml"), []byte(landscape), 0o644); err != nil {
			t.Fatal(err)
		}
		st := filepath.Join(dir, "state")
		run := func(args ...string) int {
			streams, _, out, errOut := iostreams.Test()
			args = append(args, "--config", filepath.Join(base, "lscli.yaml"), "--state", st, "--max-steps", "3000")
			code := Run(streams, args, func(string) string { return "" })
			switch {
			case code == action.ExitBug, code > action.ExitUnfinished:
				t.Fatalf("lscli %s: exit %d:\n%s%s", strings.Join(args, " "), code, out, errOut)
			case strings.Contains(errOut.String(), "lscli panicked"), strings.Contains(out.String(), "lscli panicked"):
				t.Fatalf("lscli %s: a panic:\n%s%s", strings.Join(args, " "), out, errOut)
			}
			return code
		}
		if run("reconcile", filepath.Join(dir, "landscape.yaml")) == action.ExitInvalid {
			if _, err := os.Stat(st); !os.IsNotExist(err) {
				t.Fatalf("an invalid landscape left a state behind (%v)", err)
			}
			return
		}
		if code := run("reconcile", "--all"); code == action.ExitInvalid {
			t.Fatal("a saved state is invalid input to the next reconcile")
		}
	})
}
