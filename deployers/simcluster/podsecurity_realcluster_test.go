package simcluster

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterPodSecurity labels a namespace with a PodSecurity level
// and creates a Pod in it, on a real kube-apiserver and on a simulated
// cluster, and compares the answers (a label that does not parse is
// refused).
func TestRealClusterPodSecurity(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for _, c := range []struct{ name, level, spec string }{
		{"restricted, plain", "restricted", plainPod},
		{"restricted, compliant", "restricted", compliantPod},
		{"baseline, hostNetwork", "baseline", plainPod + "\n      hostNetwork: true"},
		{"baseline, plain", "baseline", plainPod},
		{"unknown level", "strictest", plainPod},
	} {
		ns := tc.Namespace(t)
		nsObj := &corev1.Namespace{}
		if err := tc.Client.Get(ctx, client.ObjectKey{Name: ns}, nsObj); err != nil {
			t.Fatal(err)
		}
		nsObj.Labels["pod-security.kubernetes.io/enforce"] = c.level
		real := strings.ReplaceAll(outcome(tc.Client.Update(ctx, nsObj)), ns, "strict")
		f := newFixture(t)
		f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: strict}\n")
		u := obj(t, strings.Replace(restrictedNS, "restricted", c.level, 1))
		u.SetResourceVersion(f.get("v1", "Namespace", "", "strict").GetResourceVersion())
		sim := outcome(f.c.Update(ctx, u))
		if sim == "" && real == "" {
			pod := workload("Pod", c.spec)
			sim = outcome(f.c.Create(ctx, obj(t, inStrict(pod))))
			real = outcome(tc.Client.Create(ctx, obj(t, strings.Replace(pod, "namespace: default", "namespace: "+ns, 1))))
		}
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
