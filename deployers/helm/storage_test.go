package helm

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"helm.sh/helm/v3/pkg/release"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/reconcile"
)

// releaseSecrets lists the release records in namespace default.
func releaseSecrets(t *testing.T, c client.Client) []corev1.Secret {
	t.Helper()
	list := &corev1.SecretList{}
	if err := c.List(context.Background(), list, client.InNamespace("default"), client.MatchingLabels{"owner": "helm"}); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// TestReleaseRecords checks helm's record format and that records carry the
// virtual time only, so the same run stores the same bytes.
func TestReleaseRecords(t *testing.T) {
	run := func() (client.Client, []corev1.Secret) {
		c := newTestCluster()
		d := New(Options{Clusters: fixedCluster(c)})
		for i, greeting := range []string{"hello", "bye"} {
			now := epoch.Add(time.Duration(i) * time.Hour)
			cfg := config(t, map[string]any{"readinessChecks": noReadiness, "values": map[string]any{"greeting": greeting}})
			reconcileOnce(t, d, deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, now), now)
		}
		return c, releaseSecrets(t, c)
	}
	c, first := run()
	_, second := run()
	if len(first) != 2 {
		t.Fatalf("%d release records, want 2", len(first))
	}
	for i := range first {
		if !reflect.DeepEqual(first[i].Data, second[i].Data) || !reflect.DeepEqual(first[i].Labels, second[i].Labels) {
			t.Errorf("record %s differs between two identical runs", first[i].Name)
		}
	}
	v1 := first[0]
	wantLabels := map[string]string{"name": "demo", "owner": "helm", "status": "superseded", "version": "1",
		"createdAt": "1136214245", "modifiedAt": "1136217845"}
	if v1.Name != "sh.helm.release.v1.demo.v1" || v1.Type != releaseSecretType || !reflect.DeepEqual(v1.Labels, wantLabels) {
		t.Errorf("record %s type %s labels %v, want sh.helm.release.v1.demo.v1, %s, %v", v1.Name, v1.Type, v1.Labels,
			releaseSecretType, wantLabels)
	}
	rels, err := newReleaser(context.Background(), c, false, "demo", "default", nil, epoch).history()
	if err != nil {
		t.Fatal(err)
	}
	r2 := rels[1]
	if !r2.Info.FirstDeployed.Time.Equal(epoch) || !r2.Info.LastDeployed.Time.Equal(epoch.Add(time.Hour)) {
		t.Errorf("revision 2 first/last deployed %s/%s, want %s/%s", r2.Info.FirstDeployed, r2.Info.LastDeployed,
			epoch, epoch.Add(time.Hour))
	}
	for _, h := range rels[0].Hooks {
		if !h.LastRun.StartedAt.Time.Equal(epoch) {
			t.Errorf("hook %s started at %s, want %s", h.Name, h.LastRun.StartedAt, epoch)
		}
	}
}

// TestInstallConflict refuses to take over an object helm does not own, and
// succeeds once it is gone (helm checks ownership before it stores a revision).
func TestInstallConflict(t *testing.T) {
	foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "demo-demo"}}
	c := newTestCluster(foreign)
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := config(t, map[string]any{"readinessChecks": noReadiness})
	item := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch)
	_, err := d.Reconcile(context.Background(), request(item, epoch))
	if err == nil || !strings.Contains(err.Error(), "exists and cannot be imported into the current release") || reconcile.IsTerminal(err) {
		t.Fatalf("err = %v, want helm's ownership error, to be retried", err)
	}
	if err := c.Delete(context.Background(), foreign); err != nil {
		t.Fatal(err)
	}
	wantPhase(t, reconcileOnce(t, d, item, epoch.Add(time.Second)), lsv1alpha1.DeployItemPhases.Succeeded)
	wantHistory(t, c, "deployed")
}

// TestFailedInstallRetried stores a failed revision when an object cannot be
// written; the retry upgrades from it.
func TestFailedInstallRetried(t *testing.T) {
	fail := true
	c := kubetest.Builder(widgetKind).WithInterceptorFuncs(interceptor.Funcs{
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			if u, ok := obj.(interface{ GetKind() string }); ok && u.GetKind() == "Deployment" && fail {
				return errors.New("quota exceeded")
			}
			return c.Apply(ctx, obj, opts...)
		}}).Build()
	d := New(Options{Clusters: fixedCluster(c)})
	item := deployItem(t, config(t, map[string]any{"readinessChecks": noReadiness}), lsv1alpha1.DeployItemPhases.Init, epoch)
	_, err := d.Reconcile(context.Background(), request(item, epoch))
	if err == nil || !strings.Contains(err.Error(), "quota exceeded") || reconcile.IsTerminal(err) {
		t.Fatalf("err = %v, want the apply error, to be retried", err)
	}
	wantHistory(t, c, "failed")
	fail = false
	wantPhase(t, reconcileOnce(t, d, item, epoch.Add(time.Second)), lsv1alpha1.DeployItemPhases.Succeeded)
	wantHistory(t, c, "superseded", "deployed") // helm supersedes the failed revision
}

// TestReleaseRecordErrorsAreHelms: a release record that cannot be stored
// (the release namespace does not exist, as in gardener/landscaper-examples'
// helm-deployer/helm-4 on a new cluster) fails with the words of helm's
// Secrets driver, which Landscaper's helm deployer shows.
func TestReleaseRecordErrorsAreHelms(t *testing.T) {
	c := kubetest.Builder(widgetKind).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if _, ok := obj.(*corev1.Secret); ok {
				return apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "default")
			}
			return c.Create(ctx, obj, opts...)
		}}).Build()
	d := New(Options{Clusters: fixedCluster(c)})
	item := deployItem(t, config(t, map[string]any{"readinessChecks": noReadiness}), lsv1alpha1.DeployItemPhases.Init, epoch)
	_, err := d.Reconcile(context.Background(), request(item, epoch))
	want := `unable to install helm chart release: create: failed to create: namespaces "default" not found`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// TestPooledGzipWritesSameRecords checks that a record from a reused gzip
// writer is byte for byte the one a new writer of helm's level writes, for
// records of different sizes in turn (a reset that kept any state of the
// previous record would show in the next).
func TestPooledGzipWritesSameRecords(t *testing.T) {
	fresh := func(rls *release.Release) string {
		b, err := json.Marshal(rls)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return base64.StdEncoding.EncodeToString(buf.Bytes())
	}
	for i, n := range []int{0, 100000, 3, 70000, 1, 5000} {
		rls := &release.Release{Name: fmt.Sprintf("r%d", i), Version: i + 1,
			Manifest: strings.Repeat(fmt.Sprintf("kind: ConfigMap # %d\n", i), n)}
		got, err := encodeRelease(rls)
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh(rls); got != want {
			t.Fatalf("record %d (%d lines): pooled writer wrote %d characters, a new writer %d", i, n, len(got), len(want))
		}
	}
}

// TestPooledGunzipReadsEveryRecord checks that records read in turn by
// reused gzip readers come back whole, also after a record that fails
// halfway (truncated) or at its header.
func TestPooledGunzipReadsEveryRecord(t *testing.T) {
	for round := range 3 {
		for i, n := range []int{100000, 0, 3, 70000, -1, 5000, -2, 1} {
			rls := &release.Release{Name: fmt.Sprintf("r%d", i), Version: i + 1,
				Manifest: strings.Repeat(fmt.Sprintf("kind: ConfigMap # %d %d\n", round, i), max(n, 10000))}
			data, err := encodeRelease(rls)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := base64.StdEncoding.DecodeString(data)
			switch n {
			case -1:
				raw = raw[:len(raw)/2]
			case -2:
				raw = append([]byte{0x1f, 0x8b, 0x08, 0xff}, raw[4:12]...)
			}
			sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: rls.Name},
				Data: map[string][]byte{"release": []byte(base64.StdEncoding.EncodeToString(raw))}}
			got, err := decodeRelease(sec)
			if n < 0 {
				if err == nil {
					t.Errorf("round %d, record %d: a damaged record decoded", round, i)
				}
				continue
			}
			if err != nil {
				t.Fatalf("round %d, record %d: %v", round, i, err)
			}
			if got.Name != rls.Name || got.Manifest != rls.Manifest {
				t.Errorf("round %d, record %d: decoded %s with %d manifest bytes, want %s with %d", round, i,
					got.Name, len(got.Manifest), rls.Name, len(rls.Manifest))
			}
		}
	}
}
