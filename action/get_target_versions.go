package action

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
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

// inRequestedVersions reads again, through the cluster's client c, the
// objects of objs whose kind reqs ask for in a version other than the one
// they are listed in: kubectl gets a custom resource in the version its
// argument names (opentelemetrycollectors.v1alpha1.opentelemetry.io), and
// the API server converts it from its stored version, by the CRD's
// conversion webhook if it has one, failing as kube-apiserver fails when
// that webhook cannot be called.
func inRequestedVersions(ctx context.Context, c client.Client, objs []*unstructured.Unstructured, reqs []ClusterRequest) ([]*unstructured.Unstructured, error) {
	versions := requestedVersions(c.RESTMapper(), clusterShortNames(objs), reqs)
	if len(versions) == 0 {
		return objs, nil
	}
	out := make([]*unstructured.Unstructured, len(objs))
	for i, o := range objs {
		out[i] = o
		gvk := o.GroupVersionKind()
		v, ok := versions[gvk.GroupKind()]
		if !ok || v == gvk.Version {
			continue
		}
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(gvk.GroupKind().WithVersion(v))
		if err := c.Get(ctx, client.ObjectKeyFromObject(o), got); err != nil {
			return nil, fmt.Errorf("get %s %s in version %s: %w", gvk.Kind, client.ObjectKeyFromObject(o), v, err)
		}
		out[i] = got
	}
	return out, nil
}
