package simcluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterAllocationConflicts writes Services that ask for a node
// port or cluster IP another Service holds, on a real kube-apiserver and on
// a simulated cluster, and compares the errors (status code and text, the
// cluster IP made "IP"): allocations are unique in a cluster, and freed
// when their Service is deleted or no longer needs them.
func TestRealClusterAllocationConflicts(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	svc := func(ns, name, spec string) client.Object {
		return obj(t, "apiVersion: v1\nkind: Service\nmetadata: {name: "+name+", namespace: "+ns+"}\nspec: "+spec+"\n")
	}
	ipOf := func(c client.Client, ns, name string) string {
		s := &corev1.Service{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
			t.Fatal(err)
		}
		return s.Spec.ClusterIP
	}
	type result struct {
		code int32
		text string
	}
	outcome := func(err error, ip string) result {
		if err == nil {
			return result{}
		}
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			return result{-1, err.Error()}
		}
		text := err.Error()
		if ip != "" {
			text = strings.ReplaceAll(text, ip, "IP")
		}
		return result{status.Status().Code, text}
	}
	steps := []struct {
		name  string
		write func(c client.Client, ns, ip string) error
	}{
		{"create a with node port 30871", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "a", `{type: NodePort, selector: {app: a}, ports: [{port: 80, nodePort: 30871}]}`))
		}},
		{"create b with node port 30871", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "b", `{type: NodePort, selector: {app: b}, ports: [{port: 80, nodePort: 30871}]}`))
		}},
		{"create b with node port 30871 on UDP", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "b", `{type: NodePort, selector: {app: b}, ports: [{port: 53, protocol: UDP, nodePort: 30871}]}`))
		}},
		{"create b with a's node port on its second port", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "b", `{type: NodePort, selector: {app: b}, ports: [{name: p1, port: 81}, {name: p2, port: 80, nodePort: 30871}]}`))
		}},
		{"create b with a's cluster IP", func(c client.Client, ns, ip string) error {
			return c.Create(ctx, svc(ns, "b", `{clusterIP: `+ip+`, selector: {app: b}, ports: [{port: 80}]}`))
		}},
		{"create lb with a's node port as health check node port", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "lb", `{type: LoadBalancer, externalTrafficPolicy: Local, healthCheckNodePort: 30871, selector: {app: b}, ports: [{port: 80}]}`))
		}},
		{"create b without node port", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "b", `{type: NodePort, selector: {app: b}, ports: [{port: 80}]}`))
		}},
		{"patch b to a's node port", func(c client.Client, ns, _ string) error {
			return c.Patch(ctx, svc(ns, "b", `{}`), client.RawPatch(types.JSONPatchType,
				[]byte(`[{"op":"replace","path":"/spec/ports/0/nodePort","value":30871}]`)))
		}},
		{"patch b to a's cluster IP", func(c client.Client, ns, ip string) error {
			return c.Patch(ctx, svc(ns, "b", `{}`), client.RawPatch(types.MergePatchType,
				[]byte(`{"spec":{"clusterIP":"`+ip+`","clusterIPs":["`+ip+`"]}}`)))
		}},
		{"patch b to a's cluster IP and node port", func(c client.Client, ns, ip string) error {
			return c.Patch(ctx, svc(ns, "b", `{}`), client.RawPatch(types.JSONPatchType,
				[]byte(`[{"op":"replace","path":"/spec/clusterIP","value":"`+ip+`"},{"op":"replace","path":"/spec/clusterIPs","value":["`+ip+`"]},`+
					`{"op":"replace","path":"/spec/ports/0/nodePort","value":30871}]`)))
		}},
		{"create e as ExternalName", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "e", `{type: ExternalName, externalName: example.com}`))
		}},
		{"patch e to ClusterIP with a's cluster IP", func(c client.Client, ns, ip string) error {
			return c.Patch(ctx, svc(ns, "e", `{}`), client.RawPatch(types.MergePatchType,
				[]byte(`{"spec":{"type":"ClusterIP","externalName":null,"clusterIP":"`+ip+`","ports":[{"port":80}]}}`)))
		}},
		{"patch a to ClusterIP", func(c client.Client, ns, _ string) error {
			return c.Patch(ctx, svc(ns, "a", `{}`), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"type":"ClusterIP"}}`)))
		}},
		{"patch b to the node port a freed", func(c client.Client, ns, _ string) error {
			return c.Patch(ctx, svc(ns, "b", `{}`), client.RawPatch(types.JSONPatchType,
				[]byte(`[{"op":"replace","path":"/spec/ports/0/nodePort","value":30871}]`)))
		}},
		{"patch a back to NodePort with b's node port", func(c client.Client, ns, _ string) error {
			return c.Patch(ctx, svc(ns, "a", `{}`), client.RawPatch(types.JSONPatchType,
				[]byte(`[{"op":"replace","path":"/spec/type","value":"NodePort"},{"op":"replace","path":"/spec/ports/0/nodePort","value":30871}]`)))
		}},
		{"delete b", func(c client.Client, ns, _ string) error { return c.Delete(ctx, svc(ns, "b", `{}`)) }},
		{"create c with the node port b freed", func(c client.Client, ns, _ string) error {
			return c.Create(ctx, svc(ns, "c", `{type: NodePort, selector: {app: c}, ports: [{port: 80, nodePort: 30871}]}`))
		}},
		{"delete a", func(c client.Client, ns, _ string) error { return c.Delete(ctx, svc(ns, "a", `{}`)) }},
		{"create d with the cluster IP a freed", func(c client.Client, ns, ip string) error {
			return c.Create(ctx, svc(ns, "d", `{clusterIP: `+ip+`, selector: {app: d}, ports: [{port: 80}]}`))
		}},
	}
	var simIP, realIP string
	for _, step := range steps {
		sim, real := outcome(step.write(f.c, "default", simIP), simIP), outcome(step.write(tc.Client, ns, realIP), realIP)
		if sim != real {
			t.Errorf("%s:\nsimulated: %d %s\nreal:      %d %s", step.name, sim.code, sim.text, real.code, real.text)
		} else {
			t.Logf("%s: %d %s", step.name, real.code, real.text)
		}
		if simIP == "" {
			simIP, realIP = ipOf(f.c, "default", "a"), ipOf(tc.Client, ns, "a")
		}
	}
}
