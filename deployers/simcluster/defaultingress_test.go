package simcluster

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ingressClass is an IngressClass manifest named name, the default class
// when isDefault is "true" (the chart's quoted value; "" leaves the
// annotation out).
func ingressClass(name, isDefault string) string {
	annotations := ""
	if isDefault != "" {
		annotations = ", annotations: {ingressclass.kubernetes.io/is-default-class: \"" + isDefault + "\"}"
	}
	return "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: " + name + annotations + "}\n" +
		"spec: {controller: example.com/" + name + "}\n"
}

// ingressManifest is Ingress default/web with extra spec fields (", key:
// value") and metadata fields.
func ingressManifest(meta, spec string) string {
	return "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, namespace: default" + meta + "}\n" +
		"spec: {defaultBackend: {service: {name: web, port: {number: 80}}}" + spec + "}\n"
}

// ingressClassName is spec.ingressClassName of Ingress default/web, and
// whether it is set.
func (f *fixture) ingressClassName() (string, bool) {
	f.t.Helper()
	class, ok, _ := unstructured.NestedString(f.get("networking.k8s.io/v1", "Ingress", "default", "web").Object, "spec", "ingressClassName")
	return class, ok
}

// TestDefaultIngressClassAdmission: an Ingress created without a class
// (no spec.ingressClassName, no kubernetes.io/ingress.class annotation)
// gets the default IngressClass's name, as kube-apiserver's
// DefaultIngressClass admission plugin sets it (the newest default when
// several are, then by name); one that names a class keeps it; without a
// default class ("false" is not one) it has none.
func TestDefaultIngressClassAdmission(t *testing.T) {
	tests := []struct {
		name      string
		classes   []string
		ingress   string
		wantClass string
		wantSet   bool
	}{
		{"no class, a default class", []string{ingressClass("traefik", "true")}, ingressManifest("", ""), "traefik", true},
		{"no class, default false", []string{ingressClass("traefik", "false")}, ingressManifest("", ""), "", false},
		{"no IngressClass at all", nil, ingressManifest("", ""), "", false},
		{"a class named", []string{ingressClass("traefik", "true"), ingressClass("nginx", "")}, ingressManifest("", ", ingressClassName: nginx"), "nginx", true},
		{"the class annotation", []string{ingressClass("traefik", "true")}, ingressManifest(", annotations: {kubernetes.io/ingress.class: nginx}", ""), "", false},
		{"two defaults, same time", []string{ingressClass("zeta", "true"), ingressClass("alpha", "true")}, ingressManifest("", ""), "alpha", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(tt.classes...)
			f.create(tt.ingress)
			class, set := f.ingressClassName()
			if class != tt.wantClass || set != tt.wantSet {
				t.Errorf("ingressClassName = %q (set %v), want %q (set %v)", class, set, tt.wantClass, tt.wantSet)
			}
		})
	}
	t.Run("the newest default", func(t *testing.T) {
		f := newFixture(t)
		f.create(ingressClass("old", "true"))
		f.clock.Step(time.Minute)
		f.create(ingressClass("new", "true"))
		f.create(ingressManifest("", ""))
		if class, _ := f.ingressClassName(); class != "new" {
			t.Errorf("ingressClassName = %q, want new", class)
		}
	})
	// The plugin admits creations only: an update that leaves the field
	// out (a manifest deployer's update strategy "update" writes its
	// manifest as it is) clears the class the creation got.
	t.Run("an update without the class", func(t *testing.T) {
		f := newFixture(t)
		f.create(ingressClass("traefik", "true"), ingressManifest("", ""))
		f.update(ingressManifest("", ""))
		if class, set := f.ingressClassName(); set {
			t.Errorf("ingressClassName = %q after the update, want none", class)
		}
	})
}
