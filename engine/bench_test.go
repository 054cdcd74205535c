package engine_test

import (
	"context"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/reconcile"
)

// generateLandscape returns n root installations in one namespace, each with
// an inline blueprint that renders three mock deploy items in a dependsOn chain.
func generateLandscape(n int) []fakecluster.Object {
	objs := make([]fakecluster.Object, 0, n)
	for i := range n {
		inst := rootInstallation(fmt.Sprintf("inst-%05d", i), `{}`, `{export: {n: 1}}`, `{}`)
		objs = append(objs, inst)
	}
	return objs
}

// BenchmarkReconcile loads a generated landscape into a new simulation,
// starts a job at every root and runs to the end. Figures are in docs/performance.md.
func BenchmarkReconcile(b *testing.B) {
	for _, n := range []int{100, 1000, 3000, 10000} {
		b.Run(fmt.Sprintf("installations=%d", n), func(b *testing.B) {
			objs := generateLandscape(n)
			b.ReportAllocs()
			for b.Loop() {
				cfg, err := engine.NewConfig(nil, reconcile.DefaultSeed, false, reconcile.DefaultStartTime)
				if err != nil {
					b.Fatal(err)
				}
				cfg.Deployer = (&deployers.Framework{Client: cfg.Cluster, Clock: cfg.Clock,
					Deployers: map[lsv1alpha1.DeployItemType]deployer.Deployer{deployers.MockType: deployers.Mock{}}}).Reconciler()
				e := engine.New(cfg)
				ctx := context.Background()
				if err := landscape.EnsureDefaultContexts(ctx, cfg.Cluster, []string{"test"}); err != nil {
					b.Fatal(err)
				}
				if _, err := landscape.Apply(ctx, cfg.Cluster, objs, nil); err != nil {
					b.Fatal(err)
				}
				res, err := e.Run(ctx, reconcile.RunOptions{})
				if err != nil || res.Reason != reconcile.StopQuiet {
					b.Fatalf("run: %v %s", err, res.Reason)
				}
				b.ReportMetric(float64(res.Steps), "steps/op")
			}
		})
	}
}
