package apply_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

const diName = "di"

// raw converts YAML to a JSON RawExtension.
func raw(y string) *runtime.RawExtension {
	data, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		panic(err)
	}
	return &runtime.RawExtension{Raw: data}
}

// m is a manifest with policy.
func m(policy managedresource.ManifestPolicy, y string) managedresource.Manifest {
	return managedresource.Manifest{Policy: policy, Manifest: raw(y)}
}

func cm(name, extra string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: ns" + extra + "}\ndata: {k: " + name + "}"
}

// ours is a stored object labelled as this deploy item's.
func ours(name string) string {
	return cm(name, ", labels: {"+apply.DeployItemLabel+": "+diName+"}")
}

// recorder is a fake cluster that logs the writes made to it.
type recorder struct {
	client.WithWatch
	writes []string
}

// newRecorder builds a recorder seeded with stored; failName makes writes of
// objects with that name fail.
func newRecorder(stored []string, failName string, extra ...kubetest.Kind) *recorder {
	r := &recorder{}
	log := func(verb string, obj client.Object) error {
		r.writes = append(r.writes, fmt.Sprintf("%s %s %s", verb, obj.GetObjectKind().GroupVersionKind().Kind, key(obj)))
		if failName != "" && obj.GetName() == failName {
			return fmt.Errorf("injected failure")
		}
		return nil
	}
	r.WithWatch = kubetest.Builder(extra...).WithObjects(kubetest.Objects(stored...)...).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := log("create", obj); err != nil {
				return err
			}
			return c.Create(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			if err := log("update", obj); err != nil {
				return err
			}
			return c.Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			if err := log("patch", obj); err != nil {
				return err
			}
			return c.Patch(ctx, obj, p, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			if err := log("delete", obj); err != nil {
				return err
			}
			return c.Delete(ctx, obj, opts...)
		},
	}).Build()
	return r
}

func key(obj client.Object) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}

// inventory prints the managed resources as "policy Kind ns/name" lines.
func inventory(list managedresource.ManagedResourceStatusList) string {
	var lines []string
	for _, mr := range list {
		r := mr.Resource
		id := r.Name
		if r.Namespace != "" {
			id = r.Namespace + "/" + id
		}
		lines = append(lines, fmt.Sprintf("%s %s %s", mr.Policy, r.Kind, id))
	}
	return strings.Join(lines, "\n")
}

// thingKind is a namespaced custom kind the RESTMapper knows.
var thingKind = kubetest.Kind{GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Thing"}, Namespaced: true}

func mustApply(t *testing.T, opts apply.Options) apply.Result {
	t.Helper()
	res, err := apply.Apply(context.Background(), opts)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func typesUID(s string) types.UID { return types.UID(s) }
