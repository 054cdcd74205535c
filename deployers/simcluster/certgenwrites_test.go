package simcluster

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// contourCertgenJob is Contour's certgen Job (examples/contour
// 02-job-certgen.yaml, reduced): its Secret names are compiled into
// contour, no flag names them.
const contourCertgenJob = `
apiVersion: batch/v1
kind: Job
metadata: {name: contour-certgen, namespace: NS}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: contour
        image: ghcr.io/projectcontour/contour:v1.33.0
        command: [contour, certgen, --kube, --incluster, --overwrite, ARGS]
        env: [{name: CONTOUR_NAMESPACE, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}]
`

// TestContourCertgenWritesItsSecrets: a completed Job running contour
// certgen --kube is taken to have written contourcert and envoycert (and
// cacert in the legacy format), TLS Secrets with contour's keys, in the
// namespace its --namespace names, so that Contour's Deployment and
// Envoy's DaemonSet, which mount them, become ready as on a real cluster.
func TestContourCertgenWritesItsSecrets(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: projectcontour}\n")
	f.create(strings.NewReplacer("NS", "projectcontour", "ARGS", "--secrets-format=compact, --namespace=$(CONTOUR_NAMESPACE)").Replace(contourCertgenJob))
	for _, name := range []string{"contourcert", "envoycert"} {
		s := f.get("v1", "Secret", "projectcontour", name)
		if got := s.Object["type"]; got != string(corev1.SecretTypeTLS) {
			t.Errorf("Secret %s: type %v, want kubernetes.io/tls", name, got)
		}
		if got, want := dataKeys(s), []string{"ca.crt", "tls.crt", "tls.key"}; !reflect.DeepEqual(got, want) {
			t.Errorf("Secret %s: keys %v, want %v", name, got, want)
		}
		if got := s.GetAnnotations()[writtenByAnnotation]; got != "Job projectcontour/contour-certgen" {
			t.Errorf("Secret %s: annotation %q", name, got)
		}
	}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "projectcontour", Name: "cacert"}, &corev1.Secret{}); err == nil {
		t.Error("format compact wrote the legacy cacert Secret")
	}
	f.create(strings.Replace(workload("DaemonSet", `
      containers: [{name: envoy, image: envoy}]
      volumes: [{name: envoycert, secret: {secretName: envoycert}}]
`), "namespace: default", "namespace: projectcontour", 1))
	f.clock.Step(podStartDelay)
	if u := f.get("apps/v1", "DaemonSet", "projectcontour", "w"); !ready(t, u) {
		t.Errorf("Envoy DaemonSet not ready; status: %v", u.Object["status"])
	}

	// The legacy format (contour's default), a suffix, a literal namespace.
	f.create(strings.NewReplacer("NS", "default", "ARGS", "--namespace, projectcontour, --secrets-name-suffix=-x").Replace(contourCertgenJob))
	for _, name := range []string{"contourcert-x", "envoycert-x", "cacert-x"} {
		f.get("v1", "Secret", "projectcontour", name)
	}
	if got := dataKeys(f.get("v1", "Secret", "projectcontour", "cacert-x")); !reflect.DeepEqual(got, []string{"cacert.pem"}) {
		t.Errorf("Secret cacert-x: keys %v", got)
	}
}

// TestContourCertgenWithoutKubeWritesNothing: contour certgen writing
// files only (--yaml, --pem), and other commands, write no Secret.
func TestContourCertgenWithoutKubeWritesNothing(t *testing.T) {
	for _, ct := range []corev1.Container{
		{Command: []string{"contour", "certgen", "--yaml"}},
		{Command: []string{"contour", "serve", "--kube"}},
		{Command: []string{"/bin/envoy", "certgen", "--kube"}},
		{Command: []string{"contour", "certgen", "--kube", "--namespace=Not_A_Namespace"}},
	} {
		if got := contourCertgen("default", &ct); got != nil {
			t.Errorf("%v writes %v", ct.Command, got)
		}
	}
	ct := corev1.Container{Command: []string{"/bin/contour"}, Args: []string{"certgen", "--kube"}}
	if got := contourCertgen("default", &ct); len(got) != 3 || got[0].namespace != contourDefaultNamespace {
		t.Errorf("/bin/contour certgen --kube writes %v, want 3 Secrets in %s", got, contourDefaultNamespace)
	}
}

// dataKeys are the keys of Secret s's data, sorted.
func dataKeys(s *unstructured.Unstructured) []string {
	data, _ := s.Object["data"].(map[string]any)
	var out []string
	for k := range data {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestEnvoyGatewayCertgenWritesItsSecrets: a completed Job running
// envoy-gateway certgen is taken to have written Envoy Gateway's Secrets in
// the namespace of ENVOY_GATEWAY_NAMESPACE (the Job's, by field reference);
// with --local it writes files only.
func TestEnvoyGatewayCertgenWritesItsSecrets(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: envoy-gateway-system}\n")
	f.create(`
apiVersion: batch/v1
kind: Job
metadata: {name: eg-gateway-helm-certgen, namespace: envoy-gateway-system}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: envoy-gateway-certgen
        image: docker.io/envoyproxy/gateway:v1.6.0
        command: [envoy-gateway, certgen]
        env:
        - {name: ENVOY_GATEWAY_NAMESPACE, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}}
        - {name: KUBERNETES_CLUSTER_DOMAIN, value: cluster.local}
`)
	for _, want := range []struct {
		name, typ string
		keys      []string
	}{
		{"envoy-gateway", "kubernetes.io/tls", []string{"ca.crt", "tls.crt", "tls.key"}},
		{"envoy", "kubernetes.io/tls", []string{"ca.crt", "tls.crt", "tls.key"}},
		{"envoy-rate-limit", "kubernetes.io/tls", []string{"ca.crt", "tls.crt", "tls.key"}},
		{"envoy-oidc-hmac", "Opaque", []string{"hmac-secret"}},
	} {
		s := f.get("v1", "Secret", "envoy-gateway-system", want.name)
		if s.Object["type"] != want.typ || !reflect.DeepEqual(dataKeys(s), want.keys) {
			t.Errorf("Secret %s: type %v keys %v, want %s %v", want.name, s.Object["type"], dataKeys(s), want.typ, want.keys)
		}
	}
	for _, ct := range []corev1.Container{
		{Command: []string{"envoy-gateway", "certgen", "--local"}},
		{Command: []string{"envoy-gateway", "server"}},
	} {
		if got := envoyGatewayCertgen("default", &ct); got != nil {
			t.Errorf("%v writes %v", ct.Command, got)
		}
	}
	ct := corev1.Container{Command: []string{"envoy-gateway"}, Args: []string{"certgen"}}
	if got := envoyGatewayCertgen("default", &ct); len(got) != 4 || got[0].namespace != envoyGatewayDefaultNamespace {
		t.Errorf("envoy-gateway certgen without the variable writes %v, want 4 Secrets in %s", got, envoyGatewayDefaultNamespace)
	}
}
