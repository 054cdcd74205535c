package apply

import (
	"bytes"
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/reconcile"
)

// The execution groups, applied in this order.
const (
	groupCRD = iota
	groupClusterScoped
	groupNamespaced
	groupCount
)

// item is one expanded manifest with its group.
type item struct {
	managedresource.Manifest
	typeMeta   metav1.TypeMeta
	namespaced bool
}

// Expand returns the manifests with lists expanded: a manifest with a
// top-level items list becomes one manifest per item, with the same policy
// and hooks.
func Expand(manifests []managedresource.Manifest) ([]managedresource.Manifest, error) {
	var out []managedresource.Manifest
	for _, m := range manifests {
		if m.Manifest == nil {
			return nil, fmt.Errorf("unable to expand managed resource manifests: manifest is empty")
		}
		list := &metav1.List{}
		if err := json.Unmarshal(m.Manifest.Raw, list); err != nil {
			return nil, fmt.Errorf("unable to expand managed resource manifests: unable to expand manifest: %w", err)
		}
		if list.Items == nil {
			out = append(out, m)
			continue
		}
		for i := range list.Items {
			expanded := m
			expanded.Manifest = &list.Items[i]
			out = append(out, expanded)
		}
	}
	return out, nil
}

// group expands manifests and sorts them into the execution groups.
func group(c client.Client, manifests []managedresource.Manifest) ([groupCount][]*item, error) {
	var groups [groupCount][]*item
	expanded, err := Expand(manifests)
	if err != nil {
		return groups, err
	}
	crdScopes := map[schema.GroupKind]bool{}
	var todo []*item
	for _, m := range expanded {
		it := &item{Manifest: m}
		if err := json.Unmarshal(m.Manifest.Raw, &it.typeMeta); err != nil {
			return groups, fmt.Errorf("unable to parse type metadata: %w", err)
		}
		if it.typeMeta.Kind != "CustomResourceDefinition" {
			todo = append(todo, it)
			continue
		}
		gk, namespaced, err := crdScope(m.Manifest)
		if err != nil {
			return groups, err
		}
		crdScopes[gk] = namespaced
		groups[groupCRD] = append(groups[groupCRD], it)
	}
	for _, it := range todo {
		if err := it.setScope(c, crdScopes); err != nil {
			return groups, err
		}
		g := groupClusterScoped
		if it.namespaced {
			g = groupNamespaced
		}
		groups[g] = append(groups[g], it)
	}
	return groups, nil
}

// setScope finds out whether the item's kind is namespaced, from the
// RESTMapper or else from a CRD of the same set.
func (it *item) setScope(c client.Client, crdScopes map[schema.GroupKind]bool) error {
	probe := &unstructured.Unstructured{}
	gvk := it.typeMeta.GroupVersionKind()
	probe.SetGroupVersionKind(gvk)
	namespaced, err := c.IsObjectNamespaced(probe)
	if err == nil {
		it.namespaced = namespaced
		return nil
	}
	if apierrors.IsUnauthorized(err) {
		return unauthorized(c, gvk, err)
	}
	namespaced, ok := crdScopes[gvk.GroupKind()]
	if !ok {
		return unknownKind(c, gvk)
	}
	it.namespaced = namespaced
	return nil
}

// groupVersionServer is a client that knows the group versions its cluster
// serves (the simulated clusters do).
type groupVersionServer interface {
	ServesGroupVersion(schema.GroupVersion) bool
}

// unknownKind is Landscaper's error for a kind the cluster does not serve
// (ApiResourceHandler.GetApiResourceForType, which asks the discovery): a
// group version the cluster does not serve at all, such as that of a CRD
// that is not installed, is not found by the discovery (reason
// GetApiResourceList); a kind missing from a served group version is
// reason GetApiResource. Neither has a code: the apply is retried until the
// progressing timeout.
func unknownKind(c client.Client, gvk schema.GroupVersionKind) error {
	if s, ok := c.(groupVersionServer); ok && !s.ServesGroupVersion(gvk.GroupVersion()) {
		err := fmt.Errorf("unable to get api resources for %s: the server could not find the requested resource", gvk.GroupVersion())
		return reconcile.WrapError(err, "GetApiResource", "GetApiResourceList", err.Error())
	}
	err := fmt.Errorf("unable to get apiresource for %s", gvk)
	return reconcile.WrapError(err, "GetApiResource", "GetApiResource", err.Error())
}

// restConfigured is a client that tells its REST configuration (a real
// cluster's does).
type restConfigured interface {
	RESTConfig() *rest.Config
}

// unauthorized is Landscaper's error when the discovery refuses the
// Target's credentials (401): code ERR_UNAUTHORIZED, which fails the item
// at once (GetApiResourceForType, since Landscaper #1259). Unlike other
// discovery errors, it is not hidden by a CRD of the same set. The text is
// that of the discovery request Landscaper makes, which decodes the
// apiserver's Status ("Unauthorized"); the RESTMapper's error (cause)
// words it otherwise, so the request is made again when the client can.
func unauthorized(c client.Client, gvk schema.GroupVersionKind, cause error) error {
	if rc, ok := c.(restConfigured); ok {
		if dc, derr := discovery.NewDiscoveryClientForConfig(rc.RESTConfig()); derr == nil {
			if _, derr = dc.ServerResourcesForGroupVersion(gvk.GroupVersion().String()); apierrors.IsUnauthorized(derr) {
				cause = derr
			}
		}
	}
	err := fmt.Errorf("unable to get api resources for %s: %w", gvk.GroupVersion(), cause)
	return reconcile.WrapError(err, "GetApiResource", "GetApiResourceList", err.Error(), lsv1alpha1.ErrorUnauthorized)
}

// crdScope reads the group, kind and scope a CRD manifest defines.
func crdScope(raw *runtime.RawExtension) (schema.GroupKind, bool, error) {
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Scope string `json:"scope"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(raw.Raw, &crd); err != nil {
		return schema.GroupKind{}, false, fmt.Errorf("unable to parse CRD: %w", err)
	}
	gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	return gk, crd.Spec.Scope == "Namespaced", nil
}

// decode turns the item's manifest into an object with int64 numbers, and
// sets its namespace as the API server would see it: cleared for
// cluster-scoped kinds, defaultNamespace for namespaced ones without one.
func (it *item) decode(defaultNamespace string) (*unstructured.Unstructured, error) {
	obj := &unstructured.Unstructured{}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(it.Manifest.Manifest.Raw), 4096)
	if err := dec.Decode(obj); err != nil {
		return nil, fmt.Errorf("error while decoding manifest %s: %w", it.typeMeta.GroupVersionKind(), err)
	}
	switch {
	case !it.namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "" && defaultNamespace != "":
		obj.SetNamespace(defaultNamespace)
	case obj.GetNamespace() == "":
		// Landscaper's applier reads the object first, and the client refuses
		// the key (applyObject: "unable to get object: ...").
		return nil, fmt.Errorf("unable to get object: an empty namespace may not be set when a resource name is provided")
	}
	return obj, nil
}
