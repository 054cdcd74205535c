package fakecluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// incompressible returns n bytes of JSON (a string of hex digits no
// compression shrinks much).
func incompressible(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"manifest":"`)
	for i := 0; b.Len() < n-2; i++ {
		sum := sha256.Sum256([]byte(fmt.Sprint(i)))
		b.WriteString(hex.EncodeToString(sum[:]))
	}
	return []byte(b.String()[:n-2] + `"}`)
}

func sizedItem(name string, config int) *lsv1alpha1.DeployItem {
	return &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name},
		Spec: lsv1alpha1.DeployItemSpec{Type: "landscaper.gardener.cloud/kubernetes-manifest",
			Configuration: &runtime.RawExtension{Raw: incompressible(config)}}}
}

// TestObjectsTooLargeForEtcd: a Landscaper object whose JSON is larger
// than etcd stores is refused as kube-apiserver refuses it, on create,
// update and status update, and the stored object stays as it was; one
// just below the limit is stored, and an Execution's deploy items count
// gzipped, as Landscaper stores them.
func TestObjectsTooLargeForEtcd(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	tooLarge := func(what string, err error) {
		t.Helper()
		if se, ok := err.(apierrors.APIStatus); !ok || se.Status().Code != 500 || se.Status().Message != "etcdserver: request is too large" {
			t.Errorf("%s: error %v, want 500 etcdserver: request is too large", what, err)
		}
	}
	tooLarge("create of 1.6 MB", c.Create(ctx, sizedItem("big", 1600<<10)))
	if err := c.Create(ctx, sizedItem("fits", 1500<<10)); err != nil {
		t.Fatalf("create of 1.5 MB: %v", err)
	}

	small := sizedItem("grows", 100)
	if err := c.Create(ctx, small); err != nil {
		t.Fatal(err)
	}
	grown := small.DeepCopy()
	grown.Spec.Configuration.Raw = incompressible(1600 << 10)
	tooLarge("update to 1.6 MB", c.Update(ctx, grown))
	status := small.DeepCopy()
	status.Status.ProviderStatus = &runtime.RawExtension{Raw: incompressible(1600 << 10)}
	tooLarge("status update to 1.6 MB", c.UpdateStatus(ctx, status))
	var got lsv1alpha1.DeployItem
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "grows"}, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Spec.Configuration.Raw) != len(small.Spec.Configuration.Raw) || got.Status.ProviderStatus != nil ||
		got.ResourceVersion != small.ResourceVersion {
		t.Errorf("refused writes changed the stored object: rv %s, config %d bytes", got.ResourceVersion, len(got.Spec.Configuration.Raw))
	}

	// 2 MB of repeated text gzips to a few kilobytes.
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "exec"},
		Spec: lsv1alpha1.ExecutionSpec{DeployItems: lsv1alpha1.DeployItemTemplateList{{Name: "a", Type: "t",
			Configuration: &runtime.RawExtension{Raw: []byte(`{"m":"` + strings.Repeat("apiVersion: v1\n", 140000) + `"}`)}}}}}
	if err := c.Create(ctx, exec); err != nil {
		t.Errorf("create of an Execution with 2 MB of deploy items that gzip: %v", err)
	}
}
