package action

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// unservedSims is a SimulatedClusters whose cluster has the CRD
// widgets.example.com with v1 served and v1beta1 served: false.
type unservedSims struct{ asked []string }

func (s *unservedSims) WaitsFor(context.Context, *lsv1alpha1.Target, schema.GroupVersionKind, string, string) (simcluster.Wait, error) {
	return simcluster.Wait{}, nil
}

func (s *unservedSims) UnservedVersions(_ context.Context, _ *lsv1alpha1.Target, gv schema.GroupVersion, kind string) ([]simcluster.UnservedVersion, error) {
	s.asked = append(s.asked, gv.String()+" "+kind)
	if gv.Group != "example.com" || gv.Version != "v1beta1" || kind != "" && kind != "Widget" {
		return nil, nil
	}
	return []simcluster.UnservedVersion{{CRD: "widgets.example.com", Kind: "Widget", Served: []string{"v1"}}}, nil
}

func (s *unservedSims) MutatingWebhooks(context.Context, *lsv1alpha1.Target, schema.GroupVersionKind, string, string) ([]simcluster.MutatingWebhook, error) {
	return nil, nil
}

// TestUnservedVersionHintChosen: an item that failed on a group version
// its simulated cluster has a CRD for, with served: false, gets the hint
// that names the CRD, the versions it serves and what to do, not the one
// for a CRD that is missing; for a version no CRD defines the hint for a
// missing CRD stays.
func TestUnservedVersionHintChosen(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	failed := lsv1alpha1.DeployItemPhases.Failed
	item := func(msg string) lsv1alpha1.DeployItem {
		di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
		di.Status.FirstError = &lsv1alpha1.Error{Message: msg}
		di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
		return *di
	}
	const wantUnserved = "DeployItem laas/shoot: its target cluster (Target laas/cluster) does not serve %s although the CRD is installed: " +
		"CustomResourceDefinition widgets.example.com (kind Widget, serves v1) defines version v1beta1 with served: false"
	const wantFix = "Either apply the Widget as example.com/v1 (a version it serves), or set served: true for v1beta1 in the CustomResourceDefinition"
	for _, tc := range []struct {
		name, msg, want string
	}{
		{"manifest, group version", "unable to get api resources for example.com/v1beta1: the server could not find the requested resource",
			strings.ReplaceAll(wantUnserved, "%s", "example.com/v1beta1")},
		{"manifest, kind", "unable to get apiresource for example.com/v1beta1, Kind=Widget",
			strings.ReplaceAll(wantUnserved, "%s", "example.com/v1beta1, Kind=Widget")},
		{"helm release", `unable to build kubernetes objects from release manifest: resource mapping not found for name: "w" namespace: "" from "": no matches for kind "Widget" in version "example.com/v1beta1"` + "\nensure CRDs are installed first",
			strings.ReplaceAll(wantUnserved, "%s", "example.com/v1beta1, Kind=Widget")},
		{"no CRD defines the version", "unable to get api resources for example.com/v2: the server could not find the requested resource",
			"does not serve example.com/v2: a real cluster serves it once its CustomResourceDefinition is installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sims := &unservedSims{}
			hints, err := itemHints(ctx, c, sims, nil, []lsv1alpha1.DeployItem{item(tc.msg)})
			if err != nil {
				t.Fatal(err)
			}
			if len(hints) != 1 || !strings.Contains(hints[0], tc.want) {
				t.Fatalf("hints = %q, want one containing %q", hints, tc.want)
			}
			if strings.Contains(tc.want, "served: false") && !strings.Contains(hints[0], wantFix) {
				t.Errorf("hint = %q, want it to say %q", hints[0], wantFix)
			}
		})
	}
	// Without simulated clusters, the hint for a missing CRD.
	hints, err := itemHints(ctx, c, nil, nil, []lsv1alpha1.DeployItem{item("unable to get apiresource for example.com/v1beta1, Kind=Widget")})
	if err != nil || len(hints) != 1 || !strings.Contains(hints[0], "seed a CustomResourceDefinition") {
		t.Errorf("without simulated clusters: %q, %v", hints, err)
	}
}

func TestUnservedVersionTextSeveralCRDs(t *testing.T) {
	di := failedItem(lsv1alpha1.DeployItemPhases.Failed, "")
	got := unservedVersionText(di, schema.GroupVersion{Group: "example.com", Version: "v1beta1"}, "", []simcluster.UnservedVersion{
		{CRD: "gadgets.example.com", Kind: "Gadget"},
		{CRD: "widgets.example.com", Kind: "Widget", Served: []string{"v1", "v2"}},
	})
	for _, w := range []string{"CustomResourceDefinition gadgets.example.com (kind Gadget, serves no version) and CustomResourceDefinition widgets.example.com (kind Widget, serves v1, v2)",
		"Either apply the object in a version its CRD serves (apiVersion example.com/<version>), or set served: true for v1beta1"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
}
