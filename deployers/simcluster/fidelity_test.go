package simcluster

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestScopeFromClientGo(t *testing.T) {
	tests := []struct {
		gk   schema.GroupKind
		want bool
	}{
		{schema.GroupKind{Kind: "Namespace"}, true},
		{schema.GroupKind{Kind: "PersistentVolume"}, true},
		{schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}, true},
		{schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}, true},
		{schema.GroupKind{Group: "storage.k8s.io", Kind: "StorageClass"}, true},
		{crdGroupKind, true},
		{schema.GroupKind{Kind: "ConfigMap"}, false},
		{schema.GroupKind{Kind: "ServiceAccount"}, false},
		{schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"}, false},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, false},
	}
	for _, tt := range tests {
		if got := clusterScoped()[tt.gk]; got != tt.want {
			t.Errorf("clusterScoped()[%s] = %v, want %v", tt.gk, got, tt.want)
		}
	}
}

func TestSystemNamespaces(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	list := &corev1.NamespaceList{}
	if err := f.c.List(ctx, list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ns := range list.Items {
		names = append(names, ns.Name)
		if ns.Labels[corev1.LabelMetadataName] != ns.Name || ns.Status.Phase != corev1.NamespaceActive {
			t.Errorf("namespace %s: labels %v, phase %q; want the metadata.name label and Active", ns.Name, ns.Labels, ns.Status.Phase)
		}
	}
	if got := strings.Join(names, ","); got != "default,kube-node-lease,kube-public,kube-system" {
		t.Errorf("namespaces of a new cluster = %s", got)
	}
	for _, name := range []string{"default", "kube-system", "kube-public"} {
		err := f.c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "this namespace may not be deleted") {
			t.Errorf("delete namespace %s: %v, want Forbidden", name, err)
		}
	}
	if err := f.c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-node-lease"}}); err != nil {
		t.Errorf("delete namespace kube-node-lease: %v", err)
	}
	err := f.c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-node-lease", Name: "c"}})
	if !apierrors.IsNotFound(err) {
		t.Errorf("create in a deleted namespace: %v, want NotFound", err)
	}
}

func TestGenerationByKind(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(deploymentManifest, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"1"}}`,
		`{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high"},"value":1000}`)
	change := func(apiVersion, kind, ns, name string, mutate func(u *unstructured.Unstructured)) int64 {
		t.Helper()
		u := f.get(apiVersion, kind, ns, name)
		mutate(u)
		if err := f.c.Update(ctx, u); err != nil {
			t.Fatal(err)
		}
		return f.get(apiVersion, kind, ns, name).GetGeneration()
	}
	if g := change("v1", "ConfigMap", "default", "c", func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "2", "data", "a")
	}); g != 0 {
		t.Errorf("ConfigMap after a data change: generation %d, want none (0)", g)
	}
	if g := change("apps/v1", "Deployment", "default", "web", func(u *unstructured.Unstructured) {
		u.SetAnnotations(map[string]string{"a": "b"})
	}); g != 2 {
		t.Errorf("Deployment after an annotation change: generation %d, want 2", g)
	}
	if g := change("apps/v1", "Deployment", "default", "web", func(u *unstructured.Unstructured) {
		u.SetLabels(map[string]string{"app": "web", "x": "y"})
	}); g != 2 {
		t.Errorf("Deployment after a label change: generation %d, want 2", g)
	}
	if g := change("scheduling.k8s.io/v1", "PriorityClass", "", "high", func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "d", "description")
	}); g != 1 {
		t.Errorf("PriorityClass after a change: generation %d, want 1", g)
	}
}

func TestSecretStringData(t *testing.T) {
	f := newFixture(t)
	f.create(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"default"},"data":{"a":"eA==","b":"eA=="},"stringData":{"b":"plain","c":"more"}}`)
	sec := &corev1.Secret{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "s"}, sec); err != nil {
		t.Fatal(err)
	}
	if string(sec.Data["a"]) != "x" || string(sec.Data["b"]) != "plain" || string(sec.Data["c"]) != "more" || sec.StringData != nil {
		t.Errorf("secret data %q, stringData %q; want stringData merged into data", sec.Data, sec.StringData)
	}
}

func TestServiceAccountToken(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/service-account-token","metadata":{"name":"tok","namespace":"default","annotations":{"kubernetes.io/service-account.name":"app"}}}`)
	read := func() *corev1.Secret {
		sec := &corev1.Secret{}
		if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, sec); err != nil {
			t.Fatal(err)
		}
		return sec
	}
	if sec := read(); len(sec.Data) != 0 {
		t.Fatalf("token secret without its ServiceAccount has data %v, want none yet", sec.Data)
	}
	f.create(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"app","namespace":"default"}}`)
	sec := read()
	sa := &corev1.ServiceAccount{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "app"}, sa); err != nil {
		t.Fatal(err)
	}
	if string(sec.Data["namespace"]) != "default" || string(sec.Data["ca.crt"]) != string(CACertificate) ||
		strings.Count(string(sec.Data["token"]), ".") != 2 || sec.Annotations[corev1.ServiceAccountUIDKey] != string(sa.UID) {
		t.Errorf("token secret: data %q, annotations %v", sec.Data, sec.Annotations)
	}
	again := newFixture(t)
	again.create(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"app","namespace":"default"}}`,
		`{"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/service-account-token","metadata":{"name":"tok","namespace":"default","annotations":{"kubernetes.io/service-account.name":"app"}}}`)
	sec2 := &corev1.Secret{}
	if err := again.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, sec2); err != nil {
		t.Fatal(err)
	}
	if string(sec2.Data["token"]) != string(sec.Data["token"]) {
		t.Errorf("tokens differ between two runs: %s, %s", sec2.Data["token"], sec.Data["token"])
	}
	if err := f.c.Delete(ctx, sa); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, &corev1.Secret{}); !apierrors.IsNotFound(err) {
		t.Errorf("token secret after its ServiceAccount was deleted: %v, want NotFound", err)
	}
}

// TestServiceAccountTokenLooksAtTokenSecrets: the token controller finds a
// ServiceAccount's token Secrets in the tracker's index of token Secrets,
// not by listing every Secret of the namespace for every write of a
// ServiceAccount (a namespace with helm releases holds megabytes of release
// records); the index follows creates and deletes.
func TestServiceAccountTokenLooksAtTokenSecrets(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/service-account-token","metadata":{"name":"tok","namespace":"default","annotations":{"kubernetes.io/service-account.name":"app"}}}`,
		`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"plain","namespace":"default"}}`,
		`{"apiVersion":"v1","kind":"Secret","type":"helm.sh/release.v1","metadata":{"name":"sh.helm.release.v1.x.v1","namespace":"default"}}`)
	c, err := f.clusters.ClusterFor(ctx, f.target)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.tracker.tokenSecrets["default"]; len(got) != 1 || !got["tok"] {
		t.Fatalf("token secrets of default = %v, want only tok", got)
	}
	f.create(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"app","namespace":"default"}}`)
	sec := &corev1.Secret{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, sec); err != nil {
		t.Fatal(err)
	}
	if len(sec.Data["token"]) == 0 {
		t.Errorf("token secret of a new ServiceAccount has no token: %q", sec.Data)
	}
	if err := f.c.Delete(ctx, sec); err != nil {
		t.Fatal(err)
	}
	if got := c.tracker.tokenSecrets["default"]; len(got) != 0 {
		t.Errorf("token secrets of default after tok was deleted = %v, want none", got)
	}
}
