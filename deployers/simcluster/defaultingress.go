package simcluster

import (
	"fmt"

	networkingv1 "k8s.io/api/networking/v1"
	networkingv1beta1 "k8s.io/api/networking/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

var ingressClassesResource = networkingv1.SchemeGroupVersion.WithResource("ingressclasses")

// defaultIngressClassName does what kube-apiserver's DefaultIngressClass
// admission plugin (kubernetes plugin/pkg/admission/network/
// defaultingressclass) does to an Ingress being created that asks for no
// class (no spec.ingressClassName and no kubernetes.io/ingress.class
// annotation): it sets spec.ingressClassName to the default IngressClass,
// the one annotated ingressclass.kubernetes.io/is-default-class "true",
// the newest when several are (then by name). Without a default class the
// Ingress is left as it is. The plugin admits creations only, so the
// caller runs this on create; an update that leaves the field out clears
// it. obj is typed or unstructured; other kinds are left alone.
func (t *tracker) defaultIngressClassName(obj runtime.Object) error {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if u.GroupVersionKind() != networkingv1.SchemeGroupVersion.WithKind("Ingress") {
			return nil
		}
		return changeAsTyped(u, t.defaultIngressClassName) // admit.go
	}
	ing, ok := obj.(*networkingv1.Ingress)
	if !ok || ing.Spec.IngressClassName != nil {
		return nil
	}
	if _, ok := ing.Annotations[networkingv1beta1.AnnotationIngressClass]; ok {
		return nil
	}
	name, err := t.defaultIngressClass()
	if err != nil || name == "" {
		return err
	}
	ing.Spec.IngressClassName = &name
	return nil
}

// defaultIngressClass is the name of the default IngressClass, "" when
// there is none.
func (t *tracker) defaultIngressClass() (string, error) {
	classes, err := storedList[networkingv1.IngressClass](t.ObjectTracker, ingressClassesResource, "IngressClass")
	if err != nil {
		return "", fmt.Errorf("the default IngressClass: %w", err)
	}
	return newestDefault(classes, func(c *networkingv1.IngressClass) bool {
		return c.Annotations[networkingv1.AnnotationIsDefaultIngressClass] == "true"
	}), nil
}
