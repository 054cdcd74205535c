package simcluster

import (
	"context"
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Contour's install files (projectcontour/contour examples/contour
// 02-job-certgen.yaml, also in its release files) run a Job
// `contour certgen --kube --incluster --overwrite --secrets-format=compact
// --namespace=$(CONTOUR_NAMESPACE)`, whose Role may create any Secret: the
// names of the Secrets it writes, contourcert and envoycert, are compiled
// into contour (internal/certgen AsSecrets, AsLegacySecrets), which no
// flag or rule of jobwrites.go and rbacwrites.go names. The Contour
// Deployment mounts contourcert and the Envoy DaemonSet envoycert: on a
// real cluster they become ready once the Job ran, so a completed Job (or
// Pod) of the simulated cluster running contour certgen --kube is taken to
// have written them as contour does: kubernetes.io/tls Secrets with keys
// ca.crt (format compact), tls.crt and tls.key, named with the
// --secrets-name-suffix, and for format legacy (contour's default) an
// Opaque Secret cacert with key cacert.pem, in the namespace of
// --namespace (default projectcontour).

// Envoy Gateway's install.yaml (and its chart, as a pre-install hook) runs
// a Job `envoy-gateway certgen`, whose Role may create any Secret: it
// writes the kubernetes.io/tls Secrets envoy-gateway, envoy and
// envoy-rate-limit (keys ca.crt, tls.crt, tls.key) and the Opaque Secret
// envoy-oidc-hmac (key hmac-secret) in the namespace of its environment
// variable ENVOY_GATEWAY_NAMESPACE, default envoy-gateway-system
// (envoyproxy/gateway internal/cmd/certgen.go, internal/provider/kubernetes
// secrets.go CertsToSecret, internal/envoygateway/config config.go);
// --local writes files instead. The envoy-gateway Deployment mounts
// Secret envoy-gateway.

// envoyGatewayDefaultNamespace is Envoy Gateway's default controller
// namespace (internal/envoygateway/config DefaultNamespace).
const envoyGatewayDefaultNamespace = "envoy-gateway-system"

// contourDefaultNamespace is contour certgen's default for --namespace
// (cmd/contour/certgen.go).
const contourDefaultNamespace = "projectcontour"

// certgenSecret is a Secret a certificate generator writes: its namespace,
// name, type and keys.
type certgenSecret struct {
	namespace, name string
	typ             corev1.SecretType
	keys            []string
}

// certgenWrites writes the Secrets that the containers of spec, run by a
// completed Job or Pod (writer, in namespace ns), are taken to have written
// because they run a certificate generator whose Secret names are compiled
// in (contour certgen, envoy-gateway certgen). A Secret that exists is left as it is.
func (c *Cluster) certgenWrites(ctx context.Context, writer, ns string, spec *corev1.PodSpec) error {
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			for _, s := range append(contourCertgen(ns, &cs[i]), envoyGatewayCertgen(ns, &cs[i])...) {
				if err := c.writeCertgenSecret(ctx, writer, s); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// contourCertgen are the Secrets container ct, in a pod of namespace ns,
// writes when it runs `contour certgen --kube`, nil when it runs something
// else or writes files (--yaml, --pem) only.
func contourCertgen(ns string, ct *corev1.Container) []certgenSecret {
	args := append(append([]string{}, ct.Command...), ct.Args...)
	if len(args) < 2 || path.Base(args[0]) != "contour" || args[1] != "certgen" {
		return nil
	}
	kube := false
	flags := map[string]string{"namespace": contourDefaultNamespace, "secrets-format": "legacy"}
	for j := 2; j < len(args); j++ {
		a := args[j]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "kube" {
			kube = !hasValue || value == "true"
			continue
		}
		if _, known := flags[name]; !known && name != "secrets-name-suffix" {
			continue
		}
		if !hasValue && j+1 < len(args) && !strings.HasPrefix(args[j+1], "-") {
			value, j = args[j+1], j+1
		}
		flags[name] = expandEnv(ns, ct, value)
	}
	if !kube {
		return nil
	}
	target, suffix := flags["namespace"], flags["secrets-name-suffix"]
	if len(validation.IsDNS1123Label(target)) > 0 || len(validation.IsDNS1123Subdomain("contourcert"+suffix)) > 0 {
		return nil // contour refuses them and writes nothing
	}
	tlsKeys := []string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey}
	if flags["secrets-format"] == "compact" {
		tlsKeys = append([]string{"ca.crt"}, tlsKeys...)
	}
	out := []certgenSecret{
		{target, "contourcert" + suffix, corev1.SecretTypeTLS, tlsKeys},
		{target, "envoycert" + suffix, corev1.SecretTypeTLS, tlsKeys},
	}
	if flags["secrets-format"] != "compact" {
		out = append(out, certgenSecret{target, "cacert" + suffix, corev1.SecretTypeOpaque, []string{"cacert.pem"}})
	}
	return out
}

// expandEnv expands a value that is one $(VAR) reference to variable VAR
// of ct, as the kubelet does for a literal value or the field reference
// metadata.namespace (ns); any other value is returned as it is.
func expandEnv(ns string, ct *corev1.Container, value string) string {
	name, ok := strings.CutPrefix(value, "$(")
	if !ok || !strings.HasSuffix(name, ")") {
		return value
	}
	name = strings.TrimSuffix(name, ")")
	for _, e := range ct.Env {
		if e.Name != name {
			continue
		}
		switch {
		case e.ValueFrom == nil:
			return e.Value
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace":
			return ns
		}
	}
	return value
}

// writeCertgenSecret creates s, unless it exists, annotated as written by
// writer, with empty values for its keys, and lets the cluster react to
// it as to any write.
func (c *Cluster) writeCertgenSecret(ctx context.Context, writer string, s certgenSecret) error {
	data := map[string][]byte{}
	for _, k := range s.keys {
		data[k] = []byte{}
	}
	obj := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: s.name, Annotations: map[string]string{writtenByAnnotation: writer}},
		Type:       s.typ,
		Data:       data,
	}
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
	created, err := c.createAsController(ctx, gvk, obj) // exists, or its namespace does not: contour fails, writes nothing
	if err != nil {
		return fmt.Errorf("simulated cluster %s: %s writes Secret %s/%s: %w", c.key, writer, s.namespace, s.name, err)
	}
	if !created {
		return nil
	}
	c.noteRanWrite(gvk, s.namespace, s.name) // certgen runs in Jobs and Pods
	return c.afterWrite(ctx, gvk, s.namespace, s.name)
}

// envoyGatewayCertgen are the Secrets container ct, in a pod of namespace
// ns, writes when it runs `envoy-gateway certgen` without --local, nil
// when it runs something else.
func envoyGatewayCertgen(ns string, ct *corev1.Container) []certgenSecret {
	args := append(append([]string{}, ct.Command...), ct.Args...)
	if len(args) < 2 || path.Base(args[0]) != "envoy-gateway" || args[1] != "certgen" {
		return nil
	}
	for _, a := range args[2:] {
		if name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "="); (name == "local" || a == "-l") && (!hasValue || value == "true") {
			return nil
		}
	}
	target := envoyGatewayDefaultNamespace
	for _, e := range ct.Env {
		if e.Name == "ENVOY_GATEWAY_NAMESPACE" {
			target = expandEnv(ns, ct, "$("+e.Name+")")
		}
	}
	if len(validation.IsDNS1123Label(target)) > 0 {
		return nil
	}
	tlsKeys := []string{"ca.crt", corev1.TLSCertKey, corev1.TLSPrivateKeyKey}
	return []certgenSecret{
		{target, "envoy-gateway", corev1.SecretTypeTLS, tlsKeys},
		{target, "envoy", corev1.SecretTypeTLS, tlsKeys},
		{target, "envoy-rate-limit", corev1.SecretTypeTLS, tlsKeys},
		{target, "envoy-oidc-hmac", corev1.SecretTypeOpaque, []string{"hmac-secret"}},
	}
}
