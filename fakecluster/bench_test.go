package fakecluster

import (
	"context"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

const benchObjects = 10_000

// fillBench creates benchObjects installations in ten namespaces. Every
// hundredth is an owner; the others are owned by the owner before them and
// carry one of 100 "group" labels. It returns one owner's uid.
func fillBench(b *testing.B, c *Cluster) types.UID {
	b.Helper()
	ctx := context.Background()
	var owner *lsv1alpha1.Installation
	var ownerUID types.UID
	for i := range benchObjects {
		obj := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns-%d", i%10),
			Name:      fmt.Sprintf("inst-%05d", i),
			Labels:    map[string]string{"group": fmt.Sprintf("g%d", i%100), "app": "bench"},
		}}
		if i%100 == 0 {
			obj.Namespace = "owners"
		} else {
			obj.OwnerReferences = ownerRefs(owner)
		}
		if err := c.Create(ctx, obj); err != nil {
			b.Fatal(err)
		}
		if i%100 == 0 {
			owner = obj
		}
		if i == 500 {
			ownerUID = owner.UID
		}
	}
	return ownerUID
}

func BenchmarkCreateList(b *testing.B) {
	ctx := context.Background()
	b.Run("create-10000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fillBench(b, New(Options{}))
		}
	})
	c := New(Options{})
	ownerUID := fillBench(b, c)
	lists := []struct {
		name string
		opts ListOptions
		want int
	}{
		{name: "list-by-owner", opts: ListOptions{OwnerUID: ownerUID}, want: 99},
		{name: "list-by-label", opts: ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"group": "g7"})}, want: 100},
		{name: "list-by-label-and-namespace", opts: ListOptions{Namespace: "ns-7",
			LabelSelector: labels.SelectorFromSet(labels.Set{"group": "g7"})}, want: 100},
		// For comparison: no equality requirement, so every installation is visited.
		{name: "list-by-set-selector-scan", opts: ListOptions{LabelSelector: mustParse(b, "group in (g7,g8)")}, want: 200},
	}
	for _, l := range lists {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var list lsv1alpha1.InstallationList
				if err := c.List(ctx, &list, l.opts); err != nil || len(list.Items) != l.want {
					b.Fatalf("List() = %d items, %v; want %d", len(list.Items), err, l.want)
				}
			}
		})
	}
}

func mustParse(b *testing.B, s string) labels.Selector {
	sel, err := labels.Parse(s)
	if err != nil {
		b.Fatal(err)
	}
	return sel
}
