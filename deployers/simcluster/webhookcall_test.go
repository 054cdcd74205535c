package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// webhookConfig is MetalLB's validating webhook for its Widgets' kind:
// failurePolicy Fail, served by the controller behind Service
// webhook-service.
const webhookConfig = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widget-webhook}
webhooks:
- name: widgetvalidationwebhook.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    service: {name: webhook-service, namespace: default, path: /validate-widget}
  rules:
  - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}
`

const webhookService = `
apiVersion: v1
kind: Service
metadata: {name: webhook-service, namespace: default}
spec:
  ports: [{port: 443, targetPort: 9443}]
  selector: {app: webhook}
`

const webhookDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: webhook, namespace: default}
spec:
  selector: {matchLabels: {app: webhook}}
  template:
    metadata: {labels: {app: webhook}}
    spec:
      containers: [{name: c, image: controller}]
`

// TestWebhookWithoutReadyEndpointsRefuses: a custom resource that a
// webhook with failurePolicy Fail validates is refused, in
// kube-apiserver's words, while the webhook's Service is missing or no
// ready pod is behind it (kube-proxy refuses the connection to its cluster
// IP), and accepted once the Deployment serving it is ready.
func TestWebhookWithoutReadyEndpointsRefuses(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment", Name: "webhook"}, Duration: "1m"})
	f.create(crdManifest, webhookConfig)
	ctx := context.Background()

	err := f.c.Create(ctx, obj(t, widgetManifest))
	want := `Internal error occurred: failed calling webhook "widgetvalidationwebhook.example.com": failed to call webhook: ` +
		`Post "https://webhook-service.default.svc:443/validate-widget?timeout=10s": service "webhook-service" not found`
	if !apierrors.IsInternalError(err) || err.Error() != want {
		t.Fatalf("without the Service: got %v, want %s", err, want)
	}

	f.create(webhookService, webhookDeployment)
	ip, _, _ := unstructured.NestedString(f.get("v1", "Service", "default", "webhook-service").Object, "spec", "clusterIP")
	err = f.c.Create(ctx, obj(t, widgetManifest))
	if want := `?timeout=10s": dial tcp ` + ip + `:443: connect: connection refused`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("before the pods are ready: got %v, want it to end in %s", err, want)
	}

	f.clock.Step(time.Minute)
	if err := f.c.Create(ctx, obj(t, widgetManifest)); err != nil {
		t.Fatalf("with a ready pod behind the Service: %v", err)
	}
}

// TestWebhookNotCalledIsNoObstacle: what kube-apiserver does not send to
// an unreachable webhook goes through: failurePolicy Ignore, an operation
// or a namespace its rules and selectors leave out, and the webhook
// configurations themselves.
func TestWebhookNotCalledIsNoObstacle(t *testing.T) {
	cases := map[string]string{
		"failurePolicy Ignore": strings.Replace(webhookConfig, "failurePolicy: Fail", "failurePolicy: Ignore", 1),
		"DELETE only":          strings.Replace(webhookConfig, "[CREATE, UPDATE]", "[DELETE]", 1),
		"other namespaces":     strings.Replace(webhookConfig, "  failurePolicy: Fail", "  failurePolicy: Fail\n  namespaceSelector: {matchLabels: {team: a}}", 1),
		"other objects":        strings.Replace(webhookConfig, "  failurePolicy: Fail", "  failurePolicy: Fail\n  objectSelector: {matchLabels: {checked: \"yes\"}}", 1),
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.create(crdManifest, cfg)
			if err := f.c.Create(context.Background(), obj(t, widgetManifest)); err != nil {
				t.Fatal(err)
			}
			// The configuration itself is never sent to a webhook.
			if err := f.c.Update(context.Background(), f.get("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "", "widget-webhook")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
