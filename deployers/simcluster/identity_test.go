package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/state"
)

// kubeconfigFor is a kubeconfig with one context per server; current is
// the name of the current context ("" for none).
func kubeconfigFor(current string, servers map[string]string) string {
	out := "apiVersion: v1\nkind: Config\nclusters:\n"
	for name, server := range servers {
		out += "- name: " + name + "\n  cluster: {server: \"" + server + "\"}\n"
	}
	out += "contexts:\n"
	for name := range servers {
		out += "- name: " + name + "\n  context: {cluster: " + name + ", user: u}\n"
	}
	out += "users:\n- name: u\n  user: {token: t}\n"
	if current != "" {
		out += "current-context: " + current + "\n"
	}
	return out
}

// newTarget is a kubernetes-cluster Target with config (marshalled to JSON).
func newTarget(ns, name string, config any, labels map[string]string) *lsv1alpha1.Target {
	t := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: lsv1alpha1.TargetSpec{Type: "landscaper.gardener.cloud/kubernetes-cluster"}}
	if config != nil {
		raw, _ := json.Marshal(config)
		t.Spec.Configuration = &lsv1alpha1.AnyJSON{RawMessage: raw}
	}
	return t
}

func TestKey(t *testing.T) {
	ctx := context.Background()
	store := fakecluster.New(fakecluster.Options{})
	one := kubeconfigFor("a", map[string]string{"a": "https://a.example:6443/", "b": "https://b.example"})
	copyLabels := map[string]string{lsv1alpha1.DataObjectSourceTypeLabel: "import"}
	objs := []fakecluster.Object{
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ex", Name: "kc"},
			Data: map[string][]byte{"kubeconfig": []byte(kubeconfigFor("b", map[string]string{"a": "https://a.example:6443", "b": "https://b.example"}))}},
		newTarget("ex", "dummy", map[string]any{"kubeconfig": "not a kubeconfig"}, nil),
		newTarget("ex", "zz-dummy-twin", map[string]any{"kubeconfig": "not a kubeconfig"}, nil),
	}
	for _, o := range objs {
		if err := store.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	withSecret := newTarget("ex", "from-secret", nil, nil)
	withSecret.Spec.SecretRef = &lsv1alpha1.LocalSecretReference{Name: "kc", Key: "kubeconfig"}
	missing := newTarget("ex", "missing", nil, nil)
	missing.Spec.SecretRef = &lsv1alpha1.LocalSecretReference{Name: "nope", Key: "kubeconfig"}
	tests := []struct {
		name, want, wantErr string
		target              *lsv1alpha1.Target
	}{
		{name: "current context", target: newTarget("ex", "t", map[string]any{"kubeconfig": one}, nil), want: "https://a.example:6443"},
		{name: "another namespace, same server", target: newTarget("other", "u", map[string]any{"kubeconfig": one}, nil), want: "https://a.example:6443"},
		{name: "only context", target: newTarget("ex", "t", map[string]any{"kubeconfig": kubeconfigFor("", map[string]string{"c": "https://c.example"})}, nil), want: "https://c.example"},
		{name: "secretRef", target: withSecret, want: "https://b.example"},
		{name: "secretRef to a missing secret", target: missing, wantErr: `read secret ex/nope of target missing`},
		{name: "selfConfig", target: newTarget("ex", "self", map[string]any{"selfConfig": map[string]any{"serviceAccount": map[string]any{"name": "sa"}}}, nil), want: SelfKey},
		{name: "oidcConfig", target: newTarget("other", "oidc", map[string]any{"oidcConfig": map[string]any{"server": "https://a.example:6443/", "serviceAccount": map[string]any{"name": "sa"}}}, nil), want: "https://a.example:6443"},
		{name: "oidcConfig without server", target: newTarget("ex", "oidc", map[string]any{"oidcConfig": map[string]any{"serviceAccount": map[string]any{"name": "sa"}}}, nil), want: "ex/oidc"},
		{name: "kubeconfig before oidcConfig", target: newTarget("ex", "both", map[string]any{"kubeconfig": one, "oidcConfig": map[string]any{"server": "https://o.example"}}, nil), want: "https://a.example:6443"},
		{name: "no config", target: newTarget("ex", "bare", nil, nil), want: "ex/bare"},
		{name: "unparseable kubeconfig", target: newTarget("ex", "dummy", map[string]any{"kubeconfig": "not a kubeconfig"}, nil), want: "ex/dummy"},
		{name: "copy of a Target without kubeconfig", target: newTarget("ex", "abcdef", map[string]any{"kubeconfig": "not a kubeconfig"}, copyLabels), want: "ex/dummy"},
		{name: "copy without original", target: newTarget("ex", "abcdef", map[string]any{"kubeconfig": "other"}, copyLabels), want: "ex/abcdef"},
		{name: "copy of a Target with kubeconfig", target: newTarget("ex", "abcdef", map[string]any{"kubeconfig": one}, copyLabels), want: "https://a.example:6443"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Key(ctx, tt.target, store)
			checkErr(t, err, tt.wantErr)
			if got != tt.want {
				t.Errorf("Key = %q, want %q", got, tt.want)
			}
		})
	}
}

// checkErr fails t unless err contains want (or is nil when want is empty).
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error = %v, want it to contain %q", err, want)
	}
}

func TestSharedAndLegacyClusters(t *testing.T) {
	ctx := context.Background()
	kc := kubeconfigFor("a", map[string]string{"a": "https://a.example:6443"})
	first, second := newTarget("ex", "first", map[string]any{"kubeconfig": kc}, nil), newTarget("other", "second", map[string]any{"kubeconfig": kc}, nil)
	legacy := state.ClusterObject{Cluster: "ex/first",
		Object: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"old","namespace":"default","uid":"u1"}}`)}
	store := fakecluster.New(fakecluster.Options{})
	if err := store.Create(ctx, first.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	clusters := New(Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1), Landscape: store})
	clusters.Restore([]state.ClusterObject{legacy})

	c1, err := clusters.ForTarget(ctx, second) // the cluster saved as ex/first joins the server's first
	if err != nil {
		t.Fatal(err)
	}
	if err := c1.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "new"}}); err != nil {
		t.Fatal(err)
	}
	c2, err := clusters.ForTarget(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"old", "new"} {
		if err := c2.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, &corev1.ConfigMap{}); err != nil {
			t.Errorf("ConfigMap %s through the other Target: %v", name, err)
		}
	}
	if keys := clusters.Keys(); !reflect.DeepEqual(keys, []string{"https://a.example:6443"}) {
		t.Errorf("Keys() = %v, want the server only", keys)
	}
}

// TestKeyFollowsTheContent checks that the memo of Key's answers
// (contentKeys) follows a Target's content: a Secret's kubeconfig
// rewritten to name another server, a Target's configuration changed, and
// more contents than the memo holds.
func TestKeyFollowsTheContent(t *testing.T) {
	ctx := context.Background()
	store := fakecluster.New(fakecluster.Options{})
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ex", Name: "kc"},
		Data: map[string][]byte{"kubeconfig": []byte(kubeconfigFor("b", map[string]string{"b": "https://b.example"}))}}
	if err := store.Create(ctx, sec); err != nil {
		t.Fatal(err)
	}
	withSecret := newTarget("ex", "from-secret", nil, nil)
	withSecret.Spec.SecretRef = &lsv1alpha1.LocalSecretReference{Name: "kc", Key: "kubeconfig"}
	check := func(target *lsv1alpha1.Target, want string) {
		t.Helper()
		for range 2 {
			if got, err := Key(ctx, target, store); err != nil || got != want {
				t.Fatalf("Key = %q, %v; want %q", got, err, want)
			}
		}
	}
	check(withSecret, "https://b.example")
	sec.Data["kubeconfig"] = []byte(kubeconfigFor("c", map[string]string{"c": "https://c.example/"}))
	if err := store.Update(ctx, sec); err != nil {
		t.Fatal(err)
	}
	check(withSecret, "https://c.example")
	sec.Data["kubeconfig"] = []byte("not a kubeconfig")
	if err := store.Update(ctx, sec); err != nil {
		t.Fatal(err)
	}
	check(withSecret, "ex/from-secret")

	target := newTarget("ex", "t", map[string]any{"kubeconfig": kubeconfigFor("", map[string]string{"a": "https://a.example"})}, nil)
	check(target, "https://a.example")
	target = newTarget("ex", "t", map[string]any{"oidcConfig": map[string]any{"server": "https://o.example"}}, nil)
	check(target, "https://o.example")
	for i := range maxContentKeys + 10 {
		server := fmt.Sprintf("https://s%d.example", i)
		check(newTarget("ex", "t", map[string]any{"oidcConfig": map[string]any{"server": server}}, nil), server)
	}
	check(target, "https://o.example")
}
