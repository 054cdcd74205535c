package benchland

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shape is a generated landscape.
type Shape struct {
	// Name names the shape in benchmark names.
	Name string
	// InstallationsPerRoot is how many installations one root brings
	// (itself and its subinstallations).
	InstallationsPerRoot int
	// DeployItemsPerRoot is how many deploy items one root brings.
	DeployItemsPerRoot int
	root               func(i int) string
	// files, when set, writes what the roots need besides the seed
	// DataObject (Targets, charts, lscli.yaml).
	files func(dir string) error
}

// Flat is N root installations, each rendering three mock deploy items in a
// dependsOn chain, one of them with an export.
var Flat = Shape{Name: "flat", InstallationsPerRoot: 1, DeployItemsPerRoot: 3, root: flatRoot}

// Chained is N root installations made from the same inline blueprint, each
// with nine subinstallations chained through data imports (subinstallation i
// imports what i-1 exports, with the same dataRef names in every root), each
// rendering three mock deploy items chained by dependsOn, with an export
// execution: 10 installations and 27 deploy items per root.
var Chained = Shape{Name: "chained", InstallationsPerRoot: 10, DeployItemsPerRoot: 27, root: chainedRoot}

// RootsFor returns how many roots give about installations installations.
func (s Shape) RootsFor(installations int) int { return max(1, installations/s.InstallationsPerRoot) }

// Write writes roots root installations of the shape into dir, 100 roots
// per file, in namespace "bench", and what they import.
func (s Shape) Write(dir string, roots int) error {
	seed := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: bench-seed, namespace: bench}\ndata: {seed: 1}\n"
	if err := os.WriteFile(filepath.Join(dir, "seed.yaml"), []byte(seed), 0o644); err != nil {
		return fmt.Errorf("write seed: %w", err)
	}
	if s.files != nil {
		if err := s.files(dir); err != nil {
			return err
		}
	}
	var file strings.Builder
	for i := range roots {
		file.WriteString(s.root(i))
		if (i+1)%100 == 0 || i == roots-1 {
			name := filepath.Join(dir, fmt.Sprintf("part-%04d.yaml", i/100))
			if err := os.WriteFile(name, []byte(file.String()), 0o644); err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
			file.Reset()
		}
	}
	return nil
}

// RootName is the name of root i.
func RootName(i int) string { return fmt.Sprintf("inst-%05d", i) }

func flatRoot(i int) string {
	return inlineRoot(RootName(i), "", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: a, type: landscaper.gardener.cloud/mock, config: {}}
    - {name: b, type: landscaper.gardener.cloud/mock, dependsOn: [a], config: {export: {n: 1}}}
    - {name: c, type: landscaper.gardener.cloud/mock, dependsOn: [b], config: {}}
`)
}

// inlineRoot is a root installation name in namespace bench with the spec
// lines specLines (indented as spec's fields, may be empty) and an inline
// blueprint whose blueprint.yaml is blueprint.
func inlineRoot(name, specLines, blueprint string) string {
	return fmt.Sprintf(`---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: %s, namespace: bench}
spec:
%s  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
%s`, name, specLines, indent(blueprint, 10))
}

// chainedRoot is root i with the shared blueprint of the chained shape.
func chainedRoot(i int) string {
	return fmt.Sprintf(`---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: %s, namespace: bench}
spec:
  imports:
    data:
    - {name: seed, dataRef: bench-seed}
  blueprint:
    inline:
      filesystem:
%s`, RootName(i), indent(chainedBlueprint, 8))
}

// chainedBlueprint is the root blueprint of the chained shape: blueprint.yaml
// with nine subinstallations that use sub/blueprint.yaml.
var chainedBlueprint = func() string {
	var b strings.Builder
	b.WriteString("blueprint.yaml: |\n")
	root := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" +
		"imports:\n- {name: seed, type: data, schema: {type: object}}\nsubinstallations:\n"
	for s := range 9 {
		root += fmt.Sprintf("- file: /subinst-%d.yaml\n", s)
	}
	b.WriteString(indent(root, 2))
	for s := range 9 {
		tmpl := fmt.Sprintf("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: InstallationTemplate\nname: step-%d\nblueprint:\n  filesystem:\n%s", s, indent(subBlueprintFS, 4))
		if s > 0 {
			tmpl += fmt.Sprintf("imports:\n  data:\n  - {name: in, dataRef: step-%d-out}\n", s-1)
		} else {
			tmpl += "imports:\n  data:\n  - {name: in, dataRef: seed}\n"
		}
		tmpl += fmt.Sprintf("exports:\n  data:\n  - {name: out, dataRef: step-%d-out}\n", s)
		fmt.Fprintf(&b, "subinst-%d.yaml: |\n%s", s, indent(tmpl, 2))
	}
	return b.String()
}()

// subBlueprintFS is the filesystem of every subinstallation's blueprint:
// import "in", three chained mock items, export "out" from the last item.
var subBlueprintFS = "blueprint.yaml: |\n" + indent(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: in, type: data, schema: {type: object}}
exports:
- {name: out, type: data, schema: {type: object}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: a, type: landscaper.gardener.cloud/mock, config: {export: {step: a}}}
    - {name: b, type: landscaper.gardener.cloud/mock, dependsOn: [a], config: {export: {step: b}}}
    - name: c
      type: landscaper.gardener.cloud/mock
      dependsOn: [b]
      config:
        export: {step: c, from: {{ toJson .imports.in }}}
exportExecutions:
- name: out
  type: GoTemplate
  template: |
    exports:
      out: {n: 1}
`, 2)

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
