package helm

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	helmtime "helm.sh/helm/v3/pkg/time"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/fastjson"
)

// releaseSecretType is the Secret type helm 3 gives its release records.
const releaseSecretType corev1.SecretType = "helm.sh/release.v1"

// systemLabels are the labels helm's storage sets on a release Secret; the
// others are the release's own labels.
var systemLabels = map[string]bool{"name": true, "owner": true, "status": true, "version": true,
	"createdAt": true, "modifiedAt": true}

// secretStore is a helm storage driver that keeps release records as Secrets
// in the target cluster, in the format of helm's own "secret" driver (type
// helm.sh/release.v1, data.release = base64(gzip(json)), labels name, owner,
// status, version), so the helm CLI sees the releases of a real cluster.
//
// Unlike helm's driver it reads no clock: every timestamp that helm set
// during the request (release and hook times, createdAt/modifiedAt labels) is
// replaced by now, the deploy item's virtual time, so that the records a
// simulated cluster keeps are the same on every run. Its errors have the
// words of helm's driver ("create: failed to create: namespaces \"x\" not
// found"), which Landscaper's helm deployer shows.
type secretStore struct {
	ctx       context.Context
	c         client.Client
	namespace string
	now       time.Time
	// hooks is the action's hook state: while the action waits for a hook
	// (hookRun.paused), writes are dropped.
	hooks *hookRun
}

var _ driver.Driver = (*secretStore)(nil)

// Name is the driver name helm reports.
func (s *secretStore) Name() string { return driver.SecretsDriverName }

// Get returns the release stored under key, or driver.ErrReleaseNotFound.
func (s *secretStore) Get(key string) (*release.Release, error) {
	sec, err := s.get(key)
	if err != nil {
		return nil, err
	}
	return decodeRelease(sec)
}

// List returns the releases of the namespace that filter accepts.
func (s *secretStore) List(filter func(*release.Release) bool) ([]*release.Release, error) {
	rels, err := s.list(map[string]string{"owner": "helm"})
	if err != nil {
		return nil, err
	}
	var out []*release.Release
	for _, r := range rels {
		if filter(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Query returns the releases whose Secrets have all labels, or
// driver.ErrReleaseNotFound when there is none.
func (s *secretStore) Query(labels map[string]string) ([]*release.Release, error) {
	rels, err := s.list(labels)
	if err == nil && len(rels) == 0 {
		return nil, driver.ErrReleaseNotFound
	}
	return rels, err
}

// Create stores a new release record, or returns driver.ErrReleaseExists.
func (s *secretStore) Create(key string, rls *release.Release) error {
	if s.hooks.isPaused() {
		return nil
	}
	stampNew(rls, s.now)
	sec, err := s.secret(key, rls, nil)
	if err != nil {
		return err
	}
	sec.Labels["createdAt"] = strconv.FormatInt(s.now.Unix(), 10)
	if err := s.c.Create(s.ctx, sec); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return driver.ErrReleaseExists
		}
		return fmt.Errorf("create: failed to create: %w", err)
	}
	return nil
}

// Update replaces the record stored under key.
func (s *secretStore) Update(key string, rls *release.Release) error {
	if s.hooks.isPaused() {
		return nil
	}
	old, err := s.get(key)
	if err != nil {
		return err
	}
	if prev, derr := decodeRelease(old); derr == nil {
		stampChanged(rls, prev, s.now)
	}
	sec, err := s.secret(key, rls, old)
	if err != nil {
		return err
	}
	sec.Labels["modifiedAt"] = strconv.FormatInt(s.now.Unix(), 10)
	if err := s.c.Update(s.ctx, sec); err != nil {
		return fmt.Errorf("update: failed to update: %w", err)
	}
	return nil
}

// Delete removes the record stored under key and returns its release.
func (s *secretStore) Delete(key string) (*release.Release, error) {
	sec, err := s.get(key)
	if err != nil {
		return nil, err
	}
	rls, err := decodeRelease(sec)
	if err != nil || s.hooks.isPaused() {
		return rls, err
	}
	if err := s.c.Delete(s.ctx, sec); err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	return rls, nil
}

// get reads the Secret named key; a missing one is driver.ErrReleaseNotFound.
func (s *secretStore) get(key string) (*corev1.Secret, error) {
	sec := &corev1.Secret{}
	err := s.c.Get(s.ctx, types.NamespacedName{Namespace: s.namespace, Name: key}, sec)
	if apierrors.IsNotFound(err) {
		return nil, driver.ErrReleaseNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("get: failed to get %q: %w", key, err)
	}
	return sec, nil
}

// list decodes the release Secrets of the namespace that have all labels.
func (s *secretStore) list(labels map[string]string) ([]*release.Release, error) {
	list := &corev1.SecretList{}
	if err := s.c.List(s.ctx, list, client.InNamespace(s.namespace), client.MatchingLabels(labels)); err != nil {
		if len(labels) > 0 {
			return nil, fmt.Errorf("query: failed to query with labels: %w", err)
		}
		return nil, fmt.Errorf("list: failed to list: %w", err)
	}
	var out []*release.Release
	for i := range list.Items {
		if list.Items[i].Type != releaseSecretType {
			continue
		}
		rls, err := decodeRelease(&list.Items[i])
		if err != nil {
			return nil, err
		}
		out = append(out, rls)
	}
	return out, nil
}

// secret builds the Secret for rls, keeping old's metadata when updating.
func (s *secretStore) secret(key string, rls *release.Release, old *corev1.Secret) (*corev1.Secret, error) {
	data, err := encodeRelease(rls)
	if err != nil {
		return nil, fmt.Errorf("encode release %s: %w", key, err)
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: key}}
	if old != nil {
		sec = old.DeepCopy()
	}
	labels := map[string]string{}
	for k, v := range rls.Labels {
		labels[k] = v
	}
	if old != nil && old.Labels["createdAt"] != "" {
		labels["createdAt"] = old.Labels["createdAt"]
	}
	labels["name"], labels["owner"] = rls.Name, "helm"
	labels["status"], labels["version"] = rls.Info.Status.String(), strconv.Itoa(rls.Version)
	sec.Labels, sec.Type = labels, releaseSecretType
	sec.Data = map[string][]byte{"release": []byte(data)}
	return sec, nil
}

// encodeRelease is helm's record format: base64 of gzipped JSON.
func encodeRelease(rls *release.Release) (string, error) {
	b, err := fastjson.MarshalEscaped(rls) // json.Marshal's bytes, in a fraction of its time
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// gzipWriters keeps gzip writers at helm's level between records: a new
// writer allocates flate's compressor state (some 800 KB) for each record,
// while Reset gives the same bytes as a new writer of the same level.
var gzipWriters = sync.Pool{New: func() any {
	w, err := gzip.NewWriterLevel(nil, gzip.BestCompression)
	if err != nil {
		panic(err) // BestCompression is a valid level
	}
	return w
}}

// decodeRelease reads a record written by encodeRelease (or by helm, which
// also wrote uncompressed JSON in old versions), through releaseRecords; the
// release's own labels are those of sec.
func decodeRelease(sec *corev1.Secret) (*release.Release, error) {
	rls, err := releaseRecords.get(sec.Data["release"], func() (*release.Release, int, error) { return decodeRecord(sec) })
	if err != nil {
		return nil, err
	}
	rls.Labels = map[string]string{}
	for k, v := range sec.Labels {
		if !systemLabels[k] {
			rls.Labels[k] = v
		}
	}
	return rls, nil
}

// decodeRecord decodes the release of sec's record, and returns the length
// of its JSON.
func decodeRecord(sec *corev1.Secret) (*release.Release, int, error) {
	b, err := base64.StdEncoding.DecodeString(string(sec.Data["release"]))
	if err != nil {
		return nil, 0, fmt.Errorf("decode release record %s/%s: %w", sec.Namespace, sec.Name, err)
	}
	if len(b) > 3 && bytes.Equal(b[:3], []byte{0x1f, 0x8b, 0x08}) {
		if b, err = gunzip(b); err != nil {
			return nil, 0, fmt.Errorf("decode release record %s/%s: %w", sec.Namespace, sec.Name, err)
		}
	}
	rls := &release.Release{}
	if err := fastjson.Unmarshal(b, rls); err != nil { // as json.Unmarshal decodes it
		return nil, 0, fmt.Errorf("decode release record %s/%s: %w", sec.Namespace, sec.Name, err)
	}
	return rls, len(b), nil
}

// gunzip decompresses b, with a reader of gzipReaders: a new reader
// allocates flate's window for each record.
func gunzip(b []byte) ([]byte, error) {
	r, _ := gzipReaders.Get().(*gzip.Reader)
	if r == nil {
		var err error
		if r, err = gzip.NewReader(bytes.NewReader(b)); err != nil {
			return nil, err
		}
	} else if err := r.Reset(bytes.NewReader(b)); err != nil {
		return nil, err
	}
	defer gzipReaders.Put(r)
	defer r.Close()
	return io.ReadAll(r)
}

// gzipReaders keeps gzip readers between records (see gunzip).
var gzipReaders sync.Pool

// stampNew gives a new release record the request's time: helm stamped it
// with the wall clock. FirstDeployed of a later revision was copied from the
// previous record, which already has virtual time.
func stampNew(rls *release.Release, now time.Time) {
	t := helmtime.Time{Time: now}
	if rls.Info != nil {
		rls.Info.LastDeployed = t
		if rls.Version <= 1 {
			rls.Info.FirstDeployed = t
		}
		if !rls.Info.Deleted.IsZero() {
			rls.Info.Deleted = t
		}
	}
	for _, h := range rls.Hooks {
		if !h.LastRun.StartedAt.IsZero() {
			h.LastRun.StartedAt = t
		}
		if !h.LastRun.CompletedAt.IsZero() {
			h.LastRun.CompletedAt = t
		}
	}
}

// stampChanged replaces every time in rls that differs from prev, the stored
// record it replaces, by now: helm set it from the wall clock just now.
func stampChanged(rls, prev *release.Release, now time.Time) {
	t := helmtime.Time{Time: now}
	if rls.Info != nil && prev.Info != nil {
		restamp(&rls.Info.FirstDeployed, prev.Info.FirstDeployed, t)
		restamp(&rls.Info.LastDeployed, prev.Info.LastDeployed, t)
		restamp(&rls.Info.Deleted, prev.Info.Deleted, t)
	}
	for i, h := range rls.Hooks {
		var old release.HookExecution
		if i < len(prev.Hooks) {
			old = prev.Hooks[i].LastRun
		}
		restamp(&h.LastRun.StartedAt, old.StartedAt, t)
		restamp(&h.LastRun.CompletedAt, old.CompletedAt, t)
	}
}

// restamp sets *cur to now when it is set and differs from old.
func restamp(cur *helmtime.Time, old, now helmtime.Time) {
	if !cur.IsZero() && !cur.Equal(old) {
		*cur = now
	}
}

// errNotFound reports whether err means "no such release".
func errNotFound(err error) bool { return errors.Is(err, driver.ErrReleaseNotFound) }
