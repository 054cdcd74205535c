package action

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
)

// pendingSims is a SimulatedClusters whose claims stay Pending for why,
// of StorageClass local-path.
type pendingSims struct {
	unservedSims
	why string
}

func (s *pendingSims) ClaimPending(context.Context, *lsv1alpha1.Target, string, string) (string, string, error) {
	return s.why, "local-path", nil
}

// TestClaimPendingHint: an item whose readiness check timed out on a claim
// that waits for its first consumer is told so, with the class and that a
// consumer in a dependent item never comes; a missing class is named; a
// claim the simulated cluster knows no reason for, another kind, and a
// check that reads the claim through another Target's cluster get none.
func TestClaimPendingHint(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	item := func(msg string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, msg)
		di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
		return di
	}
	const onClaim = `timeout at: "deployer: during readiness check - resource default/data of type PersistentVolumeClaim"`
	for _, tc := range []struct {
		name, why, msg string
		config         string
		wants          []string
	}{
		{"first consumer", waitingForConsumer, onClaim, "", []string{
			"DeployItem laas/shoot: its readiness check timed out on PersistentVolumeClaim default/data, which stays Pending: waiting for first consumer",
			"StorageClass local-path has volumeBindingMode WaitForFirstConsumer", "depends on this one waits for its readiness and never comes"}},
		{"missing class", `storageclass.storage.k8s.io "local-path" not found`, onClaim, "", []string{
			`stays Pending: storageclass.storage.k8s.io "local-path" not found`, "Create StorageClass local-path"}},
		{"reason unknown", "", onClaim, "", nil},
		{"another kind", waitingForConsumer, `timeout at: "deployer: during readiness check - resource default/data of type Pod"`, "", nil},
		{"another target's claim", waitingForConsumer, onClaim,
			`{"readinessChecks":{"custom":[{"name":"bound","targetName":"other","resourceSelector":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","name":"data","namespace":"default"}]}]}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			di := item(tc.msg)
			if tc.config != "" {
				di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(tc.config)}
			}
			got, err := claimPendingHint(ctx, c, &pendingSims{why: tc.why}, di)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wants == nil && got != "" {
				t.Fatalf("hint = %q, want none", got)
			}
			for _, w := range tc.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
		})
	}
}
