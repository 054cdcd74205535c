package manifest

import (
	"context"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/exports"
	"github.com/lscli/lscli/deployers/manifest/apply"
)

// DryRunExports returns the exports item will have once its manifests are
// applied, for a dry run that deploys nothing: ok is true only when every
// export reads an object among the item's own manifests, at a path the
// manifest as written holds and a cluster keeps (not the metadata the
// cluster and the deployer add, such as uid and labels, nor status), in the
// item's Target. Anything else (an object the item does not apply, another
// Target, a manifest with policy ignore or a patchAfterDeployment, a
// configuration the deployer refuses, no exports) is ok false: the dry run
// cannot tell, and assumes none.
func DryRunExports(item *lsv1alpha1.DeployItem) (map[string]any, bool) {
	cfg, err := decodeConfig(item)
	if err != nil || cfg.Exports == nil || len(cfg.Exports.Exports) == 0 {
		return nil, false
	}
	for _, e := range cfg.Exports.Exports {
		if e.FromResource == nil || e.TargetName != nil || !keptPath(e.JSONPath) {
			return nil, false
		}
		if ref := e.FromObjectReference; ref != nil && !keptPath(ref.JSONPath) {
			return nil, false
		}
	}
	expanded, err := apply.Expand(cfg.Manifests) // lists, as the deployer expands them
	if err != nil {
		return nil, false
	}
	r := manifestReader{}
	for _, m := range expanded {
		if m.Policy == managedresource.IgnorePolicy || m.PatchAfterDeployment != nil || m.Manifest == nil {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(m.Manifest.Raw); err != nil {
			return nil, false
		}
		r.objs = append(r.objs, u)
	}
	values, err := exports.Read(context.Background(), r, cfg.Exports, nil)
	if err != nil || values == nil {
		return nil, false
	}
	return values, true
}

// keptPath says whether the value at jsonPath of an applied object is the
// manifest's: not the whole object, nor metadata but its name and
// namespace, nor status.
func keptPath(jsonPath string) bool {
	p := strings.TrimSpace(jsonPath)
	p = strings.TrimSuffix(strings.TrimPrefix(p, "{"), "}")
	p = strings.TrimPrefix(p, "$")
	switch {
	case p == "" || p == ".":
		return false
	case p == ".metadata.name" || p == ".metadata.namespace":
		return true
	case p == ".metadata" || strings.HasPrefix(p, ".metadata.") || strings.HasPrefix(p, ".metadata["):
		return false
	case p == ".status" || strings.HasPrefix(p, ".status.") || strings.HasPrefix(p, ".status["):
		return false
	}
	return strings.HasPrefix(p, ".")
}

// manifestReader is a client that only reads: Get finds an object among
// the manifests, by apiVersion, kind, namespace and name.
type manifestReader struct {
	client.Client
	objs []*unstructured.Unstructured
}

// Get copies the manifest that key and obj's apiVersion and kind name into obj,
// which must be an *unstructured.Unstructured; else it is not found.
func (r manifestReader) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	u, ok := obj.(*unstructured.Unstructured)
	if ok {
		for _, o := range r.objs {
			if o.GetAPIVersion() == u.GetAPIVersion() && o.GetKind() == u.GetKind() &&
				o.GetNamespace() == key.Namespace && o.GetName() == key.Name {
				o.DeepCopyInto(u)
				return nil
			}
		}
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	return apierrors.NewNotFound(schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}, key.Name)
}
