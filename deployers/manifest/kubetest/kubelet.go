package kubetest

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Kubelet makes a fake client (Builder's WithInterceptorFuncs) run Pods to
// completion as a kubelet would: a Pod with restartPolicy Never or
// OnFailure that is created or applied is then in phase Succeeded, so that
// helm's wait for a hook Pod ends. The client needs Pods as a status
// subresource (WithStatusSubresource).
var Kubelet = interceptor.Funcs{
	Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
		if err := c.Create(ctx, obj, opts...); err != nil {
			return err
		}
		return completePod(ctx, c, obj)
	},
	Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
		if err := c.Apply(ctx, obj, opts...); err != nil {
			return err
		}
		data, err := json.Marshal(obj)
		if err != nil {
			return fmt.Errorf("kubelet: encode applied object: %w", err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(data); err != nil {
			return nil // not an object the kubelet cares for
		}
		return completePod(ctx, c, u)
	},
}

// completePod sets obj Succeeded when it is a Pod that runs to completion.
func completePod(ctx context.Context, c client.Client, obj client.Object) error {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Group != "" || gvk.Kind != "Pod" {
		if _, ok := obj.(*corev1.Pod); !ok {
			return nil
		}
	}
	pod := &corev1.Pod{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), pod); err != nil {
		return fmt.Errorf("kubelet: get Pod %s: %w", obj.GetName(), err)
	}
	if pod.Spec.RestartPolicy != corev1.RestartPolicyNever && pod.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		return nil
	}
	pod.Status.Phase = corev1.PodSucceeded
	if err := c.Status().Update(ctx, pod); err != nil {
		return fmt.Errorf("kubelet: complete Pod %s: %w", pod.Name, err)
	}
	return nil
}
