package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// TestBuildWithoutAPIVersion: a document without apiVersion (a template
// whose comment line swallowed it) is mapped by its kind, to the core
// group's preferred version, as cli-runtime's builder maps it against a
// cluster's discovery; the object gets that apiVersion, as kube-apiserver
// takes it from the path helm posts to. A kind of another group is not
// found without its group.
func TestBuildWithoutAPIVersion(t *testing.T) {
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
	target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "sim"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType}}
	c, err := clusters.ForTarget(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	k := &kubeClient{ctx: context.Background(), c: c, namespace: "rel"}
	list, err := k.Build(strings.NewReader("# a comment that ate the apiVersion line\nkind: ServiceAccount\nmetadata: {name: sa}\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || describe(list[0]) != "ServiceAccount rel/sa" {
		t.Fatalf("built %v, want ServiceAccount rel/sa", list)
	}
	if got := list[0].Object.(*unstructured.Unstructured).GetAPIVersion(); got != "v1" {
		t.Errorf("apiVersion = %q, want v1", got)
	}
	_, err = k.Build(strings.NewReader("kind: Deployment\nmetadata: {name: d}\n"), false)
	if err == nil {
		t.Error("a Deployment without apiVersion was mapped, want an error")
	}
}
