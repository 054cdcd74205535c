package helm

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/lscli/lscli/deployers/readiness"
)

// managedResources lists the objects of a release manifest that
// providerStatus.managedResources shows for a helm release, as Landscaper's
// GetManagedResourcesStatus does: each document whose group and kind the
// default readiness check has rules for (readiness.HasRules), its namespace
// defaulted to the release namespace. A List is of kind List, so it is left
// out with its items; a kind Deployment of another group than apps is no
// Deployment.
func managedResources(manifest, namespace string) (managedresource.ManagedResourceStatusList, error) {
	docs, err := decodeDocuments(manifest)
	if err != nil {
		return nil, fmt.Errorf("decode helm release manifest: %w", err)
	}
	list := managedresource.ManagedResourceStatusList{}
	for _, doc := range docs {
		if !readiness.HasRules(doc) {
			continue
		}
		objs, err := expandList(doc)
		if err != nil {
			return nil, fmt.Errorf("decode helm release manifest: %w", err)
		}
		for _, u := range objs {
			ns := u.GetNamespace()
			if ns == "" {
				ns = namespace
			}
			list = append(list, managedresource.ManagedResourceStatus{
				Resource: corev1.ObjectReference{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(),
					Namespace: ns, Name: u.GetName()},
			})
		}
	}
	return list, nil
}

// decodeDocuments decodes a multi-document manifest into one object per
// document (numbers as int64), skipping empty documents.
func decodeDocuments(manifest string) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifest), 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(u); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
