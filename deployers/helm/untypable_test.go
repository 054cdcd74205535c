package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"helm.sh/helm/v3/pkg/kube"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// vectorStatefulSet is Vector's Aggregator with a customConfig whose
// vector source and vector sink share port 9000 (ports), or its default
// configuration's single port.
func vectorStatefulSet(ports string) string {
	return "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: vector, namespace: rel}\nspec:\n  serviceName: vector-headless\n" +
		"  selector: {matchLabels: {app: vector}}\n  template:\n    metadata: {labels: {app: vector}}\n    spec:\n      containers:\n" +
		"      - name: vector\n        image: timberio/vector\n        ports:\n" + ports
}

const (
	vectorOnePort  = "        - {name: vector, containerPort: 6000, protocol: TCP}\n"
	vectorDupPorts = "        - {name: storage, containerPort: 9000, protocol: TCP}\n        - {name: vector, containerPort: 9000, protocol: TCP}\n"
)

// TestUntypableObjectsAsHelm3: an object the API server cannot make a
// typed server-side apply patch of (two container ports with one number
// and protocol) is written as helm 3 writes it, compared with a real
// kube-apiserver: created with a POST, which keeps both ports, and
// updated with helm's three-way strategic merge patch, which keeps only
// the first. Before, both writes failed with the apply's 500.
func TestUntypableObjectsAsHelm3(t *testing.T) {
	ctx := context.Background()
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
	c, err := clusters.ForTarget(ctx, newSimulated(t, new(time.Time), nil).target)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "rel"}}); err != nil {
		t.Fatal(err)
	}
	untypableWrites(t, c, "rel")
}

// untypableWrites creates Vector's StatefulSet with the duplicate ports
// in namespace ns of c, updates it to one port and back, through lscli's
// kube client, and checks the ports each write leaves.
func untypableWrites(t *testing.T, c client.Client, ns string) {
	ctx := context.Background()
	k := &kubeClient{ctx: ctx, c: c, namespace: ns, log: &helmLog{}}
	ports := func() string {
		t.Helper()
		s := &appsv1.StatefulSet{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "vector"}, s); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range s.Spec.Template.Spec.Containers[0].Ports {
			names = append(names, p.Name)
		}
		return strings.Join(names, ",")
	}
	build := func(ports string) kube.ResourceList {
		t.Helper()
		l, err := k.Build(strings.NewReader(strings.Replace(vectorStatefulSet(ports), "namespace: rel", "namespace: "+ns, 1)), false)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	dup, one := build(vectorDupPorts), build(vectorOnePort)
	if _, err := k.Create(dup); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got := ports(); got != "storage,vector" {
		t.Errorf("created with ports %s, want storage,vector", got)
	}
	if _, err := k.Update(dup, one, false); err != nil {
		t.Fatalf("Update to one port: %v", err)
	}
	if got := ports(); got != "vector" {
		t.Errorf("updated to ports %s, want vector", got)
	}
	if _, err := k.Update(one, dup, false); err != nil {
		t.Fatalf("Update to two ports: %v", err)
	}
	if got := ports(); got != "storage" {
		t.Errorf("updated to ports %s, want storage (the strategic merge patch merges items by key)", got)
	}
}
