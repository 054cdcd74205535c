package execution

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestKubeconfigOfTarget: the kubeconfig of a Target for
// skipUninstallIfClusterRemoved, read as Landscaper's
// SecretRefResolver.GetKubeconfigFromTarget reads it: the content decoded
// as YAML (a bare kubeconfig, as a TargetSync writes it, is the
// kubeconfig), a missing key of the Secret "failed to resolve target", an
// oidcConfig without kubeconfig with Landscaper's text (its %w of a nil
// error).
func TestKubeconfigOfTarget(t *testing.T) {
	f := newFixture(t)
	f.Create(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "access", Namespace: testNS}, Data: map[string][]byte{
		"yaml": []byte("kubeconfig: |\n  apiVersion: v1\n  kind: Config\n"),
		// what a TargetSync writes: the bare kubeconfig, which the
		// target config's decoding takes as the kubeconfig (its JSON)
		"bare": []byte("apiVersion: v1\nkind: Config\n"),
		"oidc": []byte("oidcConfig: {server: https://api.example}\n"),
	}})
	target := func(key string) *lsv1alpha1.Target {
		return &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Name: "t", Namespace: testNS},
			Spec: lsv1alpha1.TargetSpec{SecretRef: &lsv1alpha1.LocalSecretReference{Name: "access", Key: key}}}
	}
	ctx := context.Background()
	kc, err := kubeconfigOf(ctx, f.Cluster, target("yaml"))
	if err != nil || !strings.HasPrefix(string(kc), "apiVersion: v1\n") {
		t.Errorf("YAML content: %q, %v", kc, err)
	}
	kc, err = kubeconfigOf(ctx, f.Cluster, target("bare"))
	if err != nil || string(kc) != `{"apiVersion":"v1","kind":"Config"}` {
		t.Errorf("bare kubeconfig: %q, %v", kc, err)
	}
	for key, want := range map[string]string{
		"missing": "target resolver: failed to resolve target",
		"oidc":    "target resolver: target config contains no kubeconfig: %!w(<nil>)",
	} {
		if _, err := kubeconfigOf(ctx, f.Cluster, target(key)); err == nil || err.Error() != want {
			t.Errorf("key %s: %v, want %q", key, err, want)
		}
	}
}
