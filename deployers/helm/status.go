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
)

// readinessKinds are the kinds Landscaper's default readiness check has
// rules for; a helm release reports only objects of these kinds as managed.
var readinessKinds = map[string]bool{"Pod": true, "Deployment": true, "ReplicaSet": true,
	"StatefulSet": true, "DaemonSet": true, "ReplicationController": true}

// managedResources lists the objects of a release manifest that
// providerStatus.managedResources shows for a helm release: Lists expanded,
// namespaces defaulted to the release namespace, only readinessKinds.
func managedResources(manifest, namespace string) (managedresource.ManagedResourceStatusList, error) {
	objs, err := decodeObjects(manifest)
	if err != nil {
		return nil, fmt.Errorf("decode helm release manifest: %w", err)
	}
	list := managedresource.ManagedResourceStatusList{}
	for _, u := range objs {
		if !readinessKinds[u.GetKind()] {
			continue
		}
		ns := u.GetNamespace()
		if ns == "" {
			ns = namespace
		}
		list = append(list, managedresource.ManagedResourceStatus{
			Resource: corev1.ObjectReference{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(),
				Namespace: ns, Name: u.GetName()},
		})
	}
	return list, nil
}

// decodeObjects decodes a multi-document manifest into objects (numbers as
// int64), expanding Lists and skipping empty documents.
func decodeObjects(manifest string) ([]*unstructured.Unstructured, error) {
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
		objs, err := expandList(u)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
}
