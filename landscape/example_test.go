package landscape_test

import (
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/lscli/lscli/landscape"
)

func ExampleLoader_Load() {
	fsys := fstest.MapFS{
		"landscape/app.yaml": {Data: []byte(`
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata:
  name: app
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Context
metadata:
  name: default
  namespace: other
`)},
	}
	ls, err := (&landscape.Loader{FS: fsys}).Load("landscape")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range ls.Objects {
		fmt.Printf("%s: document %d: %s %s/%s\n", d.File, d.Index, d.Object.GetObjectKind().GroupVersionKind().Kind,
			d.Object.GetNamespace(), d.Object.GetName())
	}
	fmt.Println("create a default Context in:", ls.NamespacesWithoutDefaultContext())
	// Output:
	// landscape/app.yaml: document 1: Installation default/app
	// landscape/app.yaml: document 2: Context other/default
	// create a default Context in: [default]
}

func ExampleLoadError() {
	fsys := fstest.MapFS{
		"examples/app.yaml": {Data: []byte(`
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata:
  name: cluster
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata:
  name: app
spec:
  contxt: default
  imports:
    targets:
    - name: cluster
  blueprint: {}
`)},
	}
	_, err := (&landscape.Loader{FS: fsys}).Load("examples")
	var le *landscape.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// examples/app.yaml: document 2: Installation "app": unknown field "spec.contxt"
	// examples/app.yaml: document 2: Installation "app": spec.imports.targets[0]: Required value: exactly one of [Target, Targets, TargetMap, TargetMapReference, TargetListReference] must be set (currently set: none) (set exactly one of the keys target, targets, targetMap, targetMapRef or targetListRef)
	// examples/app.yaml: document 2: Installation "app": spec.blueprint.definition: Required value: exactly one of [Inline, Reference] must be set (currently set: none) (set exactly one of the keys inline or ref)
}
