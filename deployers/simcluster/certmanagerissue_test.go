package simcluster

import (
	"context"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// certManagerCRD is a reduced CRD of cert-manager's (KIND, PLURAL, SCOPE).
const certManagerCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: PLURAL.cert-manager.io}
spec:
  group: cert-manager.io
  scope: SCOPE
  names: {kind: KIND, plural: PLURAL, listKind: KINDList, singular: SINGULAR}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

func certManagerCRDs() []string {
	var out []string
	for _, k := range [][4]string{
		{"Certificate", "certificates", "Namespaced", "certificate"},
		{"Issuer", "issuers", "Namespaced", "issuer"},
		{"ClusterIssuer", "clusterissuers", "Cluster", "clusterissuer"},
	} {
		out = append(out, strings.NewReplacer("KIND", k[0], "PLURAL", k[1], "SCOPE", k[2], "SINGULAR", k[3]).Replace(certManagerCRD))
	}
	return out
}

// capiServingCert is Cluster API's serving certificate (config/certmanager
// certificate.yaml, reduced) and the controller Deployment that mounts its
// Secret.
const capiServingCert = `
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: capi-serving-cert, namespace: default}
spec:
  dnsNames: [capi-webhook-service.default.svc]
  issuerRef: {kind: Issuer, name: capi-selfsigned-issuer}
  secretName: capi-webhook-service-cert
`

const capiIssuer = `
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: capi-selfsigned-issuer, namespace: default}
spec: {selfSigned: {}}
`

const certManagerController = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: cert-manager, namespace: default}
spec:
  selector: {matchLabels: {app: cert-manager}}
  template:
    metadata: {labels: {app: cert-manager}}
    spec:
      containers:
      - name: cert-manager-controller
        image: quay.io/jetstack/cert-manager-controller:v1.20.0
`

// TestCertManagerIssuesCertificates: while cert-manager's controller runs,
// a Certificate whose Issuer exists gets its TLS Secret, as cert-manager
// writes it, and the Deployment that mounts it becomes ready, as on a real
// cluster; without the controller, or before the Issuer exists, nothing is
// issued.
func TestCertManagerIssuesCertificates(t *testing.T) {
	f := newFixture(t)
	f.create(certManagerCRDs()...)
	f.create(capiServingCert)
	f.create(workload("Deployment", `
      containers: [{name: manager, image: registry.k8s.io/cluster-api/cluster-api-controller:v1.11.0}]
      volumes: [{name: cert, secret: {secretName: capi-webhook-service-cert}}]
`))
	secret := func() error {
		return f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "capi-webhook-service-cert"}, &corev1.Secret{})
	}
	if err := secret(); !apierrors.IsNotFound(err) {
		t.Fatalf("without cert-manager's controller: Secret read %v, want NotFound", err)
	}
	f.create(certManagerController)
	if err := secret(); !apierrors.IsNotFound(err) {
		t.Fatalf("without the Issuer: Secret read %v, want NotFound", err)
	}
	f.create(capiIssuer)
	s := f.get("v1", "Secret", "default", "capi-webhook-service-cert")
	if got := s.Object["type"]; got != string(corev1.SecretTypeTLS) {
		t.Errorf("type %v, want kubernetes.io/tls", got)
	}
	if got, want := dataKeys(s), []string{"ca.crt", "tls.crt", "tls.key"}; !reflect.DeepEqual(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	want := map[string]string{
		"cert-manager.io/certificate-name": "capi-serving-cert",
		"cert-manager.io/issuer-name":      "capi-selfsigned-issuer",
		"cert-manager.io/issuer-kind":      "Issuer",
		"cert-manager.io/issuer-group":     "cert-manager.io",
		writtenByAnnotation:                "cert-manager Certificate default/capi-serving-cert",
	}
	if got := s.GetAnnotations(); !reflect.DeepEqual(got, want) {
		t.Errorf("annotations %v, want %v", got, want)
	}
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("Deployment mounting the Secret not ready; status: %v", u.Object["status"])
	}

	// A Certificate written while the controller runs is issued at once;
	// one of a ClusterIssuer needs that ClusterIssuer.
	f.create(strings.NewReplacer("capi-serving-cert", "other", "capi-webhook-service-cert", "other-tls").Replace(capiServingCert))
	f.get("v1", "Secret", "default", "other-tls")
	f.create(strings.NewReplacer("capi-serving-cert", "cluster", "capi-webhook-service-cert", "cluster-tls", "kind: Issuer", "kind: ClusterIssuer").Replace(capiServingCert))
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "cluster-tls"}, &corev1.Secret{}); !apierrors.IsNotFound(err) {
		t.Fatalf("without the ClusterIssuer: Secret read %v, want NotFound", err)
	}
	f.create("apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata: {name: capi-selfsigned-issuer}\nspec: {selfSigned: {}}\n")
	f.get("v1", "Secret", "default", "cluster-tls")
}
