package action

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubeversion "k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// requestedVersions are the versions reqs name explicitly, by group and
// kind: RESOURCE.VERSION.GROUP or KIND.VERSION.GROUP, as kubectl's
// mappingFor reads them (resourceKinds; a short name too, expanded by
// shorts). Requests without a version name none.
func requestedVersions(mapper meta.RESTMapper, shorts map[string]schema.GroupResource, reqs []ClusterRequest) map[schema.GroupKind]string {
	out := map[schema.GroupKind]string{}
	for _, r := range reqs {
		gks, version, err := resourceKinds(mapper, shorts, r.Resource) // get_target_resources.go
		if err != nil || version == "" {
			continue
		}
		for _, gk := range gks {
			out[gk] = version
		}
	}
	return out
}

// unversionedKinds are the kinds reqs ask for without a version (see
// preferredVersion).
func unversionedKinds(mapper meta.RESTMapper, shorts map[string]schema.GroupResource, reqs []ClusterRequest) map[schema.GroupKind]bool {
	out := map[schema.GroupKind]bool{}
	for _, r := range reqs {
		gks, version, err := resourceKinds(mapper, shorts, r.Resource) // get_target_resources.go
		if err != nil || version != "" {
			continue
		}
		for _, gk := range gks {
			out[gk] = true
		}
	}
	return out
}

// preferredVersion is the version kubectl reads kind gvk.GroupKind() in
// when its argument names none: the group's preferred version that serves
// the kind. kube-apiserver's discovery prefers, of a group's served
// versions, the first by version.CompareKubeAwareVersionStrings
// (apiextensions-apiserver sorts a CRD group's versions so; the built-in
// groups that serve several versions by default, autoscaling's v2 and v1,
// agree), and kubectl's RESTMapper tries the preferred version first, then
// the others: the kind's highest served version. gvk is one it is served
// in, by which its resource is found.
func preferredVersion(mapper meta.RESTMapper, gvk schema.GroupVersionKind) string {
	m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return gvk.Version
	}
	served, err := mapper.KindsFor(m.Resource.GroupResource().WithVersion(""))
	if err != nil {
		return gvk.Version
	}
	best := gvk.Version
	for _, k := range served {
		if k.GroupKind() == gvk.GroupKind() && kubeversion.CompareKubeAwareVersionStrings(k.Version, best) > 0 {
			best = k.Version
		}
	}
	return best
}

// inRequestedVersions reads again, through the cluster's client c, the
// objects of objs whose kind reqs ask for in a version other than the one
// they are listed in (their stored version): kubectl gets an object in the
// version its argument names (opentelemetrycollectors.v1alpha1.opentelemetry.io),
// or else in the preferred one (preferredVersions), and the API server
// converts it from its stored version, by the CRD's conversion webhook if
// it has one, failing as kube-apiserver fails when that webhook cannot be
// called.
func inRequestedVersions(ctx context.Context, c client.Client, objs []*unstructured.Unstructured, reqs []ClusterRequest) ([]*unstructured.Unstructured, error) {
	shorts := clusterShortNames(objs)
	versions := requestedVersions(c.RESTMapper(), shorts, reqs)
	unversioned := unversionedKinds(c.RESTMapper(), shorts, reqs)
	if len(versions) == 0 && len(unversioned) == 0 {
		return objs, nil
	}
	out := make([]*unstructured.Unstructured, len(objs))
	preferred := map[schema.GroupKind]string{}
	for i, o := range objs {
		out[i] = o
		gvk := o.GroupVersionKind()
		v, named := versions[gvk.GroupKind()]
		if !named && unversioned[gvk.GroupKind()] {
			if _, ok := preferred[gvk.GroupKind()]; !ok {
				preferred[gvk.GroupKind()] = preferredVersion(c.RESTMapper(), gvk)
			}
			v = preferred[gvk.GroupKind()]
		}
		if v == "" || v == gvk.Version {
			continue
		}
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(gvk.GroupKind().WithVersion(v))
		if err := c.Get(ctx, client.ObjectKeyFromObject(o), got); err != nil {
			if !named && apierrors.IsNotFound(err) {
				// A simulated cluster keeps the built-in kinds an older
				// release serves in several versions apart by version
				// (it converts HPAs only): such an object is shown as
				// it is stored.
				continue
			}
			return nil, fmt.Errorf("get %s %s in version %s: %w", gvk.Kind, client.ObjectKeyFromObject(o), v, err)
		}
		out[i] = got
	}
	return out, nil
}
