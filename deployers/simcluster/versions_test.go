package simcluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/internal/ids"
)

const cronJobV1beta1 = `
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: "0 3 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
`

// versionFixture is newFixture for clusters of Kubernetes version v.
func versionFixture(t *testing.T, v string) *fixture {
	t.Helper()
	f := &fixture{t: t, clock: &testClock{now: epoch}}
	f.clusters = New(Options{Now: f.clock.Now, IDs: ids.NewSource(1), Version: v})
	f.target = newFixture(t).target
	f.c = f.client()
	return f
}

// TestRemovedVersionsNotServed: a cluster of the default version serves
// neither batch/v1beta1 nor extensions/v1beta1 (removed in 1.25 and 1.22):
// ServesGroupVersion, the RESTMapper and writes agree; one of 1.24 serves
// the CronJob beta.
func TestRemovedVersionsNotServed(t *testing.T) {
	ctx := context.Background()
	cronJobBeta := schema.GroupVersionKind{Group: "batch", Version: "v1beta1", Kind: "CronJob"}
	for _, tc := range []struct {
		version string
		served  bool
	}{{"", false}, {"v1.37.2", false}, {"v1.25.0", false}, {"v1.24.0", true}, {"v1.21.3", true}} {
		f := versionFixture(t, tc.version)
		s := f.c.(interface {
			ServesGroupVersion(schema.GroupVersion) bool
		})
		if got := s.ServesGroupVersion(cronJobBeta.GroupVersion()); got != tc.served {
			t.Errorf("%q: ServesGroupVersion(batch/v1beta1) = %v, want %v", tc.version, got, tc.served)
		}
		if !s.ServesGroupVersion(schema.GroupVersion{Group: "batch", Version: "v1"}) {
			t.Errorf("%q: batch/v1 not served", tc.version)
		}
		_, err := f.c.RESTMapper().RESTMapping(cronJobBeta.GroupKind(), "v1beta1")
		if (err == nil) != tc.served {
			t.Errorf("%q: RESTMapping(batch/v1beta1 CronJob): %v, want served %v", tc.version, err, tc.served)
		}
		err = f.c.Create(ctx, obj(t, cronJobV1beta1))
		switch {
		case tc.served && err != nil:
			t.Errorf("%q: create batch/v1beta1 CronJob: %v", tc.version, err)
		case !tc.served && !meta.IsNoMatchError(err):
			t.Errorf("%q: create batch/v1beta1 CronJob: %v, want a NoKindMatchError", tc.version, err)
		}
		if !tc.served && err != nil && err.Error() != `no matches for kind "CronJob" in version "batch/v1beta1"` {
			t.Errorf("%q: error %q", tc.version, err)
		}
		if _, err := f.c.IsObjectNamespaced(obj(t, cronJobV1beta1)); (err == nil) != tc.served {
			t.Errorf("%q: IsObjectNamespaced(batch/v1beta1 CronJob): %v, want served %v", tc.version, err, tc.served)
		}
	}
	f := versionFixture(t, "")
	s := f.c.(interface {
		ServesGroupVersion(schema.GroupVersion) bool
	})
	for _, gv := range []string{"extensions/v1beta1", "apps/v1beta1", "apps/v1beta2", "policy/v1beta1",
		"networking.k8s.io/v1beta1", "flowcontrol.apiserver.k8s.io/v1beta3", "storage.k8s.io/v1alpha1", "resource.k8s.io/v1beta2"} {
		if s.ServesGroupVersion(mustGroupVersion(t, gv)) {
			t.Errorf("default version serves %s", gv)
		}
	}
}

// TestServedKindsOfRelease checks rows of the table against the deprecation
// guide: what a release serves, and that a group version is served exactly
// when one of its kinds is.
func TestServedKindsOfRelease(t *testing.T) {
	for _, tc := range []struct {
		minor  int
		gvk    string
		served bool
	}{
		{21, "extensions/v1beta1 Ingress", true},
		{21, "extensions/v1beta1 Deployment", false},
		{22, "extensions/v1beta1 Ingress", false},
		{21, "networking.k8s.io/v1beta1 IngressClass", true},
		{18, "networking.k8s.io/v1 Ingress", false},
		{19, "networking.k8s.io/v1 Ingress", true},
		{24, "policy/v1beta1 PodDisruptionBudget", true},
		{25, "policy/v1beta1 PodDisruptionBudget", false},
		{20, "batch/v1 CronJob", false},
		{21, "batch/v1 CronJob", true},
		{22, "autoscaling/v2 HorizontalPodAutoscaler", false},
		{23, "autoscaling/v2 HorizontalPodAutoscaler", true},
		{31, "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", true},
		{32, "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", false},
		{26, "storage.k8s.io/v1beta1 CSIStorageCapacity", true},
		{27, "storage.k8s.io/v1beta1 CSIStorageCapacity", false},
		{31, "storage.k8s.io/v1beta1 VolumeAttributesClass", false},
		{29, "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy", false},
		{30, "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy", true},
		{36, "certificates.k8s.io/v1 ClusterTrustBundle", false},
		{37, "certificates.k8s.io/v1 ClusterTrustBundle", true},
		{37, "v1 ConfigMap", true},
		{16, "apiextensions.k8s.io/v1 CustomResourceDefinition", true},
	} {
		gv, kind, _ := strings.Cut(tc.gvk, " ")
		gvk := mustGroupVersion(t, gv).WithKind(kind)
		if !isBuiltin(gvk) {
			t.Fatalf("%s is not a kind of client-go's scheme", gvk)
		}
		if got := servesKind(gvk, tc.minor); got != tc.served {
			t.Errorf("1.%d serves %s: %v, want %v", tc.minor, tc.gvk, got, tc.served)
		}
	}
	for minor := oldestMinor; minor <= newestMinor; minor++ {
		kinds := map[schema.GroupVersion]bool{}
		gvs := map[schema.GroupVersion]bool{}
		for gvk := range builtin().AllKnownTypes() {
			if gvk.Version == "__internal" {
				continue
			}
			gvs[gvk.GroupVersion()] = true
			if isBuiltin(gvk) && !isSubresourceKind(gvk.Kind) && servesKind(gvk, minor) {
				kinds[gvk.GroupVersion()] = true
			}
		}
		for gv := range gvs {
			if got := servesGroupVersion(gv, minor); got != kinds[gv] {
				t.Errorf("1.%d: servesGroupVersion(%s) = %v, but a kind of it served: %v", minor, gv, got, kinds[gv])
			}
		}
	}
}

// TestVersionTableCoversScheme: every group version of client-go's scheme
// has a row, so that a client-go upgrade that adds one is looked at.
func TestVersionTableCoversScheme(t *testing.T) {
	for gvk := range builtin().AllKnownTypes() {
		if gvk.Version == "__internal" {
			continue
		}
		if _, ok := groupVersionSpans[gvk.GroupVersion()]; !ok {
			t.Errorf("%s has no row in groupVersionSpans", gvk.GroupVersion())
		}
	}
}

func TestCheckVersion(t *testing.T) {
	for v, ok := range map[string]bool{"": true, "v1.37.2": true, "v1.24.0": true, "1.30": true, "v1.16.0": true,
		"v1.15.12": false, "v2.0.0": false, "latest": false, "v1.40.0": true} {
		if err := CheckVersion(v); (err == nil) != ok {
			t.Errorf("CheckVersion(%q) = %v, want ok %v", v, err, ok)
		}
	}
}

// mustGroupVersion parses gv.
func mustGroupVersion(t *testing.T, gv string) schema.GroupVersion {
	t.Helper()
	parsed, err := schema.ParseGroupVersion(gv)
	if err != nil {
		t.Fatal(err)
	}
	return parsed
}
