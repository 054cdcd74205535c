package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// TestUpdateStopsAtFirstCreateFailure: helm's kube client creates the
// objects of an upgrade that do not exist yet in the order of the target
// list and stops at the first one the API server refuses (its
// ResourceList.Visit returns the error; helm.sh/helm/v3 pkg/kube
// client.go update): the objects after it are not written, the error is
// that one's ("failed to create resource: ..."), not a list joined with
// "&&", and the refused object counts as created (for cleanupOnFail).
// Reloader's chart scoped to a namespace that does not exist renders a
// Role and a RoleBinding there, and a Deployment after them.
func TestUpdateStopsAtFirstCreateFailure(t *testing.T) {
	ctx := context.Background()
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
	c, err := clusters.ForTarget(ctx, newSimulated(t, new(time.Time), nil).target)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"rel", "team-a"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	log := &helmLog{}
	k := &kubeClient{ctx: ctx, c: c, namespace: "rel", log: log}
	manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: team-a}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: team-b}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: team-b}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: rel}\n"
	target, err := k.Build(strings.NewReader(manifest), false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := k.Update(nil, target, false)
	if want := `failed to create resource: namespaces "team-b" not found`; err == nil || err.Error() != want {
		t.Fatalf("Update = %v, want %q", err, want)
	}
	var created []string
	for _, info := range res.Created {
		created = append(created, describe(info))
	}
	if got, want := strings.Join(created, ","), "ConfigMap team-a/a,ConfigMap team-b/a"; got != want {
		t.Errorf("created %s, want %s", got, want)
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "rel", Name: "c"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("the ConfigMap after the refused one: %v, want not written", err)
	}
	if got := strings.Join(log.lines, "\n"); strings.Contains(got, "error updating the resource") {
		t.Errorf("helm logs no update error for a create it stops at; logged:\n%s", got)
	}
}
