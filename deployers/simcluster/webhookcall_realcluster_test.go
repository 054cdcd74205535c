package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lscli/lscli/internal/testcluster"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestRealClusterUnreachableWebhook creates a ConfigMap that a validating
// webhook with failurePolicy Fail must see, on a real kube-apiserver and on
// a simulated cluster, while the webhook's Service is missing and while it
// is headless, and compares the refusals (kube-apiserver's service
// resolver fails before it dials). A Service without ready endpoints is
// not compared: the test cluster runs no kube-proxy to refuse the
// connection. The webhook selects only this test's namespace.
// kube-apiserver reads webhook configurations through an informer, so the
// real cluster is asked until the configuration just created is in effect
// (realRefusal).
func TestRealClusterUnreachableWebhook(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := `
apiVersion: v1
kind: Namespace
metadata: {name: lscli-webhook-call}
`
	cfg := `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: lscli-webhook-call}
webhooks:
- name: configmaps.lscli.test
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    service: {name: SERVICE, namespace: lscli-webhook-call, path: /validate}
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: lscli-webhook-call}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
`
	svc := `
apiVersion: v1
kind: Service
metadata: {name: headless, namespace: lscli-webhook-call}
spec:
  clusterIP: None
  ports: [{port: 443, targetPort: 9443}]
  selector: {app: webhook}
`
	cm := `
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: lscli-webhook-call}
`
	f := newFixture(t)
	for _, m := range []string{ns, svc} {
		u := obj(t, m)
		if err := tc.Client.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		if m == ns {
			t.Cleanup(func() { _ = tc.Client.Delete(ctx, obj(t, ns)) })
		}
		f.create(m)
	}
	for _, service := range []string{"missing", "headless"} {
		m := strings.Replace(cfg, "SERVICE", service, 1)
		if err := tc.Client.Create(ctx, obj(t, m)); err != nil {
			t.Fatal(err)
		}
		f.create(m)
		real := realRefusal(ctx, t, tc, cm, service)
		sim := outcome(f.c.Create(ctx, obj(t, cm)))
		if sim != real || real == "" {
			t.Errorf("Service %s:\nsimulated: %s\nreal:      %s", service, sim, real)
		}
		if err := tc.Client.Delete(ctx, obj(t, m)); err != nil {
			t.Fatal(err)
		}
		if err := f.c.Delete(ctx, obj(t, m)); err != nil {
			t.Fatal(err)
		}
	}
}

// realRefusal is the outcome of creating the manifest cm on the real
// cluster as a dry run (validating webhooks are called for those too),
// once kube-apiserver refuses it through the webhook of Service service:
// it reads webhook configurations from an informer, which may not have
// seen the one just created, or may still hold the one just deleted. It
// is the last outcome when that does not happen within 30 s.
func realRefusal(ctx context.Context, t *testing.T, tc *testcluster.Cluster, cm, service string) string {
	t.Helper()
	var got string
	_ = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		got = outcome(tc.Client.Create(ctx, obj(t, cm), client.DryRunAll))
		return strings.Contains(got, "https://"+service+"."), nil
	})
	return got
}
