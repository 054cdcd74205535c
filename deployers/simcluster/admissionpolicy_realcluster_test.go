package simcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterValidatingAdmissionPolicy writes Widgets that a
// ValidatingAdmissionPolicy denies on a real kube-apiserver and on a
// simulated cluster and compares the refusals (message, reason, code):
// a false expression, a message, a messageExpression with a variable, the
// namespace object and a reason, an update compared with oldObject, and an
// expression that fails to evaluate. Each case's policy selects only its
// own Widgets (an object selector), so the policies of the cases before it
// do not answer; kube-apiserver reads policies through an informer, so
// the real cluster is asked (dry run) until the case's policy is in
// effect.
func TestRealClusterValidatingAdmissionPolicy(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	probe := obj(t, widget("default", "probe", "1", ""))
	f, ns := crdClusters(t, tc, crdManifest, probe)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n")
	cases := []struct {
		name, extra, validations, size string
		update                         bool
	}{
		{"expression", "", "  - expression: object.spec.size <= 3\n", "5", false},
		{"message", "", "  - expression: object.spec.size <= 3\n    message: ' at most 3 '\n", "5", false},
		{"message-expression", "  variables:\n  - {name: limit, expression: '3'}\n",
			"  - expression: object.spec.size <= variables.limit\n    messageExpression: \"'size ' + string(object.spec.size) + ' in ' + namespaceObject.metadata.name\"\n    reason: Forbidden\n", "5", false},
		{"old-object", "", "  - expression: object.spec.size <= oldObject.spec.size\n", "5", true},
		{"evaluation-error", "", "  - expression: object.spec.missing <= 3\n", "5", false},
	}
	for i, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("lscli-vap-%d", i)
			ops := "CREATE"
			if tt.update {
				ops = "UPDATE"
			}
			policy := admissionPolicy(name, ops, "    objectSelector: {matchLabels: {vapcase: "+name+"}}\n"+tt.extra, tt.validations)
			binding := policyBinding(name, name, "Deny", "")
			for _, m := range []string{policy, binding} {
				o := obj(t, m)
				if err := tc.Client.Create(ctx, o); err != nil && !apierrors.IsAlreadyExists(err) {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = tc.Client.Delete(context.Background(), o) })
			}
			f.create(policy, binding)
			labels := "vapcase: " + name
			write := func(c client.Client, dryRun bool) error {
				w := obj(t, widget(ns, "w-"+name, tt.size, labels))
				var opts []client.CreateOption
				if dryRun {
					opts = append(opts, client.DryRunAll)
				}
				if !tt.update {
					return c.Create(ctx, w, opts...)
				}
				old := &unstructured.Unstructured{}
				old.SetGroupVersionKind(w.GroupVersionKind())
				if err := c.Get(ctx, client.ObjectKeyFromObject(w), old); apierrors.IsNotFound(err) {
					old = obj(t, widget(ns, "w-"+name, "2", labels))
					if err := c.Create(ctx, old); err != nil {
						return err
					}
				} else if err != nil {
					return err
				}
				w.SetResourceVersion(old.GetResourceVersion())
				if dryRun {
					return c.Update(ctx, w, client.DryRunAll)
				}
				return c.Update(ctx, w)
			}
			if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
				return write(tc.Client, true) != nil, nil
			}); err != nil {
				t.Fatalf("the policy is not in effect on the real cluster: %v", err)
			}
			real, sim := write(tc.Client, false), write(f.c, false)
			if real == nil || sim == nil {
				t.Fatalf("refusals: real %v, simulated %v", real, sim)
			}
			rs, ss := real.(apierrors.APIStatus).Status(), sim.(apierrors.APIStatus).Status()
			if real.Error() != sim.Error() || rs.Reason != ss.Reason || rs.Code != ss.Code {
				t.Errorf("refusal\nsimulated %q (%s %d)\nreal      %q (%s %d)", sim, ss.Reason, ss.Code, real, rs.Reason, rs.Code)
			} else {
				t.Logf("%s (%s %d)", strings.TrimSpace(real.Error()), rs.Reason, rs.Code)
			}
		})
	}
}
