package simcluster

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestCRDValidation checks that a simulated cluster refuses a CRD that
// kube-apiserver's CRD validation refuses, with its Invalid error, and
// stores a valid one (crdvalidate_realcluster_test.go compares every case
// with a real kube-apiserver).
func TestCRDValidation(t *testing.T) {
	want := map[string]string{
		"valid":              "",
		"no storage version": "status.storedVersions: Invalid value: null: must have at least one stored version",
		"two storage":        "must have exactly one version marked as storage version",
		"non-structural":     "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
		"no schema":          "spec.versions[0].schema.openAPIV3Schema: Required value",
	}
	for name, substr := range want {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			err := f.c.Create(context.Background(), obj(t, crdCreateCases[name]))
			if substr == "" {
				if err != nil {
					t.Fatalf("create: %v", err)
				}
				return
			}
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), substr) {
				t.Fatalf("create: got %v, want an Invalid error with %q", err, substr)
			}
		})
	}
}

// TestCRDStoredVersions checks that status.storedVersions keeps every
// version that was the storage version, as apiextensions-apiserver's CRD
// strategy keeps them, and that an update dropping one from spec.versions
// is refused.
func TestCRDStoredVersions(t *testing.T) {
	for name, want := range map[string]string{"new storage version": "v1alpha1,v1", "drop a stored version": "v1alpha1"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			tt := crdUpdateCases[name]
			f.create(tt.create)
			err := updateCRD(t, f.c, tt.update)
			if name == "drop a stored version" != apierrors.IsInvalid(err) {
				t.Fatalf("update: %v", err)
			}
			if got := storedVersions(t, f.c, obj(t, tt.create).GetName()); got != want {
				t.Errorf("status.storedVersions = %s, want %s", got, want)
			}
		})
	}
}
