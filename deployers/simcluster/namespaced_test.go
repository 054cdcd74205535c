package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestNamespaced: built-in kinds answer with their scope, a kind of an
// installed CRD with the CRD's, a kind nothing serves as not served.
func TestNamespaced(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: topics.kafka.example}\n" +
		"spec:\n  group: kafka.example\n  scope: Namespaced\n  names: {kind: Topic, plural: topics, singular: topic, listKind: TopicList}\n" +
		"  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n")
	for _, tc := range []struct {
		gvk                  schema.GroupVersionKind
		namespaced, isServed bool
	}{
		{schema.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}, true, true},
		{schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, false, true},
		{schema.GroupVersionKind{Group: "kafka.example", Version: "v1", Kind: "Topic"}, true, true},
		{schema.GroupVersionKind{Group: "kafka.example", Version: "v2", Kind: "Topic"}, false, false},
	} {
		ns, served, err := f.clusters.Namespaced(context.Background(), f.target, tc.gvk)
		if err != nil || ns != tc.namespaced || served != tc.isServed {
			t.Errorf("%v: namespaced %v served %v (%v), want %v %v", tc.gvk, ns, served, err, tc.namespaced, tc.isServed)
		}
	}
}
