package simcluster

import (
	"context"
	"testing"
)

// TestUpdateWithoutStatusStoresNone: an update of a custom resource that
// has no status, of a kind with the status subresource and a schema that
// keeps unknown fields, stores no "status" key, and an update that changes
// nothing is no write (the resourceVersion stays), as kube-apiserver's
// PrepareForUpdate and its no-op check do.
func TestUpdateWithoutStatusStoresNone(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(crdManifest, widgetManifest)
	before := f.get("example.com/v1", "Widget", "default", "w")
	u := obj(t, widgetManifest)
	u.SetResourceVersion(before.GetResourceVersion())
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	after := f.get("example.com/v1", "Widget", "default", "w")
	if s, has := after.Object["status"]; has {
		t.Errorf("status after update = %#v, want none", s)
	}
	if after.GetResourceVersion() != before.GetResourceVersion() {
		t.Errorf("resourceVersion %s after an update that changes nothing, want %s", after.GetResourceVersion(), before.GetResourceVersion())
	}
}
