package realcluster_test

import (
	"context"
	"os"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/testcluster"
)

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }

// TestRealCluster connects to a real kube-apiserver through Targets that
// hold the kubeconfig inline and in a Secret, and writes and reads objects.
func TestRealCluster(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	store := fakecluster.New(fakecluster.Options{})
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "kubeconfig"},
		Data: map[string][]byte{"kubeconfig": tc.Kubeconfig}}
	if err := store.Create(ctx, sec); err != nil {
		t.Fatal(err)
	}
	cs := realcluster.New(realcluster.Options{Secrets: store})
	targets := map[string]*lsv1alpha1.Target{
		"inline":    target(map[string]any{"kubeconfig": string(tc.Kubeconfig)}, nil),
		"secretRef": target(nil, &lsv1alpha1.LocalSecretReference{Name: "kubeconfig", Key: "kubeconfig"}),
	}
	for name, tg := range targets {
		t.Run(name, func(t *testing.T) {
			c, err := cs.ForTarget(ctx, tg)
			if err != nil {
				t.Fatal(err)
			}
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "via-" + strings.ToLower(name)},
				Data: map[string]string{"from": name}}
			if err := c.Create(ctx, cm); err != nil {
				t.Fatalf("create: %v", err)
			}
			got := &corev1.ConfigMap{}
			if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(cm), got); err != nil {
				t.Fatalf("read back: %v", err)
			}
			if got.Data["from"] != name || got.UID == "" {
				t.Errorf("read back %v, want data from=%s and a uid from the apiserver", got.Data, name)
			}
			v, err := c.(*realcluster.Client).ServerVersion()
			if err != nil {
				t.Fatal(err)
			}
			if v.GitVersion != "v1.37.2" {
				t.Errorf("server version = %q, want v1.37.2 (stamped by hack/build-test-cluster.sh)", v.GitVersion)
			}
		})
	}
}
