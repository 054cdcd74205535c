package simcluster

import (
	"iter"
	"reflect"
	"sync"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
)

// clusterScoped are the built-in kinds that are not namespaced. They are
// read from client-go's typed clientsets (kubernetes and apiextensions)
// rather than listed by hand: a namespaced resource's client is reached
// with a namespace (CoreV1().ConfigMaps(namespace)), a cluster-scoped one
// without (CoreV1().Namespaces()), exactly as the generator made them from
// the API's +genclient:nonNamespaced markers.
var clusterScoped = sync.OnceValue(func() map[schema.GroupKind]bool {
	out := scopesOf(builtin(), builtinClientsets()...)
	out[apiServiceGroupKind] = true // no clientset of client-go's (apiservice.go)
	return out
})

// builtinClientsets are client-go's typed clientsets of the built-in kinds.
func builtinClientsets() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[kubernetes.Interface](), reflect.TypeFor[apiextensionsclient.Interface]()}
}

// resourceClients yields the resource client interfaces of the group
// clients of each clientset interface (AppsV1(), CoreV1(), ...), each with
// whether it is reached with a namespace (CoreV1().ConfigMaps(namespace)).
func resourceClients(clientsets ...reflect.Type) iter.Seq2[reflect.Type, bool] {
	return func(yield func(reflect.Type, bool) bool) {
		for _, cs := range clientsets {
			for i := range cs.NumMethod() {
				group := cs.Method(i).Type
				if group.NumIn() != 0 || group.NumOut() != 1 || group.Out(0).Kind() != reflect.Interface {
					continue
				}
				for j := range group.Out(0).NumMethod() {
					res := group.Out(0).Method(j).Type
					if res.NumOut() != 1 || res.Out(0).Kind() != reflect.Interface {
						continue
					}
					if !yield(res.Out(0), res.NumIn() != 0) {
						return
					}
				}
			}
		}
	}
}

// scopesOf returns the kinds of scheme whose resource client in the
// clientsets takes no namespace.
func scopesOf(scheme *runtime.Scheme, clientsets ...reflect.Type) map[schema.GroupKind]bool {
	out := map[schema.GroupKind]bool{}
	for client, namespaced := range resourceClients(clientsets...) {
		if gvk, ok := kindOfClient(scheme, client); ok && !namespaced {
			out[gvk.GroupKind()] = true
		}
	}
	return out
}

// kindOfClient returns the kind a typed resource client serves: the type
// its Get (or, for create-only resources such as TokenReview, its Create)
// returns.
func kindOfClient(scheme *runtime.Scheme, client reflect.Type) (schema.GroupVersionKind, bool) {
	for _, name := range []string{"Get", "Create"} {
		m, ok := client.MethodByName(name)
		if !ok || m.Type.NumOut() != 2 || m.Type.Out(0).Kind() != reflect.Pointer {
			continue
		}
		obj, ok := reflect.New(m.Type.Out(0).Elem()).Interface().(runtime.Object)
		if !ok {
			continue
		}
		gvks, _, err := scheme.ObjectKinds(obj)
		if err != nil || len(gvks) == 0 {
			continue
		}
		return gvks[0], true
	}
	return schema.GroupVersionKind{}, false
}
