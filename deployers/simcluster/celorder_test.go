package simcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestCELErrorsOrdered: an update that breaks the CEL rules of several
// fields of a custom resource (Rook's CephCluster: dataDirHostPath is
// immutable, keyGeneration may not decrease) is refused with the same
// message every time. kube-apiserver's CEL validator walks an object's
// fields in Go's map order, so a real cluster lists such errors in an
// order that changes from request to request; a simulated cluster lists
// them in a fixed one, so that its output is reproducible.
func TestCELErrorsOrdered(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(cephClusterCRDManifest)
	f.create(`{"apiVersion":"ceph.example.com/v1","kind":"CephCluster","metadata":{"name":"rook-ceph","namespace":"default"},` +
		`"spec":{"dataDirHostPath":"/var/lib/rook","mon":{"count":3,"zones":["a"]},"keyGeneration":2,"z":{"a":1}}}`)
	seen := map[string]bool{}
	for range 40 {
		u := f.get("ceph.example.com/v1", "CephCluster", "default", "rook-ceph")
		spec := u.Object["spec"].(map[string]any)
		spec["dataDirHostPath"] = "/mnt/rook"
		spec["keyGeneration"] = int64(1)
		spec["mon"] = map[string]any{"count": int64(0), "zones": []any{"a"}}
		err := f.c.Update(ctx, u)
		if err == nil {
			t.Fatal("update accepted, want it refused")
		}
		seen[err.Error()] = true
	}
	if len(seen) != 1 {
		t.Errorf("the refusal differs from update to update:\n%v", seen)
	}
}

// TestSchemaErrorsOrdered: a custom resource that breaks its schema in
// several fields is refused with the same message every time, the errors
// sorted by field (kube-openapi's validator walks fields in map order).
func TestSchemaErrorsOrdered(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(cephClusterCRDManifest)
	seen := map[string]bool{}
	for i := range 40 {
		u := obj(t, `{"apiVersion":"ceph.example.com/v1","kind":"CephCluster","metadata":{"name":"x","namespace":"default"},`+
			`"spec":{"dataDirHostPath":"rook","mon":{"count":30,"zones":"a"},"keyGeneration":"x"}}`)
		u.SetName(fmt.Sprintf("rook-ceph-%02d", i))
		err := f.c.Create(ctx, u)
		if err == nil {
			t.Fatal("create accepted, want it refused")
		}
		seen[strings.ReplaceAll(err.Error(), `"`+u.GetName()+`"`, `"NAME"`)] = true
	}
	if len(seen) != 1 {
		t.Errorf("the refusal differs from create to create:\n%v", seen)
	}
}
