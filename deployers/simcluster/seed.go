package simcluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
)

// SeedConfig is one entry of the config file's simulatedCluster.seeds: the
// objects that already exist on a cluster before lscli deploys anything
// there, as YAML files. Exactly one of Target and Server says which
// cluster.
type SeedConfig struct {
	// Target is a Target, "namespace/name" or its name in any namespace:
	// the cluster it reaches (see Key).
	Target string `json:"target,omitempty"`
	// Server is the server of the cluster, as the Targets' kubeconfigs name
	// it (e.g. https://prod.example:6443).
	Server string `json:"server,omitempty"`
	// Files are YAML files of objects, relative to the config file.
	Files []string `json:"files"`
	// KubernetesVersion is the clusters' version (Options.Version), which
	// decides the built-in API versions a seed may use. Not part of a
	// seed's configuration.
	KubernetesVersion string `json:"-"`
}

// SeedFile is the content of one file of a seed.
type SeedFile struct {
	// Name is how messages name the file.
	Name string
	Data []byte
}

// Seed is a checked SeedConfig: what a new cluster it selects gets.
type Seed struct {
	// Target and Server select the cluster, as in SeedConfig.
	Target, Server string
	objects        []seedObject
}

// seedObject is one object of a seed and where it comes from.
type seedObject struct {
	at  string // "file: document N (Kind namespace/name)"
	obj *unstructured.Unstructured
}

// ParseSeed reads the objects of cfg from files (one per cfg.Files entry)
// and checks them: every document must decode strictly (no unknown fields
// in a built-in kind, no duplicate keys) and be an object with apiVersion,
// kind and metadata.name, and all of them must be accepted by a new
// simulated cluster (namespaces exist or are seeded, custom resources
// come after their CRD). An error names the file, the document and the
// object.
func ParseSeed(cfg SeedConfig, files []SeedFile) (Seed, error) {
	if (cfg.Target == "") == (cfg.Server == "") {
		return Seed{}, errors.New("give either target (a Target's [namespace/]name) or server (a kubeconfig's server URL)")
	}
	s := Seed{Target: cfg.Target, Server: strings.TrimSuffix(cfg.Server, "/")}
	for _, f := range files {
		objs, err := decodeSeedFile(f)
		if err != nil {
			return Seed{}, err
		}
		s.objects = append(s.objects, objs...)
	}
	sort.SliceStable(s.objects, func(i, j int) bool { return seedOrder(s.objects[i].obj) < seedOrder(s.objects[j].obj) })
	return s, s.check(cfg.KubernetesVersion)
}

var namespaceGroupKind = schema.GroupKind{Kind: "Namespace"}

// seedOrder puts CRDs first, then Namespaces, then everything else.
func seedOrder(u *unstructured.Unstructured) int {
	switch u.GroupVersionKind().GroupKind() {
	case crdGroupKind:
		return 0
	case namespaceGroupKind:
		return 1
	}
	return 2
}

// decodeSeedFile decodes the documents of f.
func decodeSeedFile(f SeedFile) ([]seedObject, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(f.Data)))
	var out []seedObject
	for index := 1; ; {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		js, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			msg := strings.NewReplacer("yaml: unmarshal errors:\n", "", "\n", "; ").Replace(err.Error())
			return nil, fmt.Errorf("%s: document %d: invalid YAML: %s", f.Name, index, strings.Join(strings.Fields(msg), " "))
		}
		if string(bytes.TrimSpace(js)) == "null" {
			continue // empty, or only comments
		}
		o, err := decodeSeedObject(js)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d%s", f.Name, index, err)
		}
		o.at = fmt.Sprintf("%s: document %d (%s)", f.Name, index, describe(o.obj))
		out = append(out, o)
		index++
	}
}

// decodeSeedObject decodes one document. Its error starts with what to put
// after the document's number.
func decodeSeedObject(js []byte) (seedObject, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		return seedObject{}, fmt.Errorf(": not an object with apiVersion and kind: %w", err)
	}
	if u.GetName() == "" {
		return seedObject{}, fmt.Errorf(" (%s): metadata.name is missing", u.GetKind())
	}
	gvk := u.GroupVersionKind()
	if !isBuiltin(gvk) || isUnstructuredBuiltin(gvk) {
		return seedObject{obj: u}, nil
	}
	typed, err := builtin().New(gvk)
	if err != nil {
		return seedObject{}, fmt.Errorf(" (%s): %w", describe(u), err)
	}
	strict, err := sigsjson.UnmarshalStrict(js, typed)
	if err == nil && len(strict) > 0 {
		err = errors.Join(strict...)
	}
	if err != nil {
		return seedObject{}, fmt.Errorf(" (%s): %w", describe(u), err)
	}
	return seedObject{obj: u}, nil
}

// describe names an object: "Kind namespace/name" or "Kind name".
func describe(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetKind() + " " + u.GetName()
	}
	return u.GetKind() + " " + u.GetNamespace() + "/" + u.GetName()
}

// check seeds a scratch cluster with s, which is what ParseSeed promises.
func (s Seed) check(version string) error {
	ctx := context.Background()
	scratch := New(Options{Now: func() (t time.Time) { return t }, Version: version})
	c, err := scratch.open(ctx, "check")
	if err != nil {
		return err
	}
	return c.sow(ctx, s)
}

// sow creates (or, when they exist, updates) the objects of s in c, as
// `kubectl apply` of the files would. The caller holds the lock.
func (c *Cluster) sow(ctx context.Context, s Seed) error {
	for _, o := range s.objects {
		if err := c.put(ctx, o.obj.DeepCopy()); err != nil {
			return fmt.Errorf("%s: %w%s", o.at, err, c.seedHint(err))
		}
	}
	return nil
}

// selects reports whether s is for the cluster c: by server, or by a
// Target that reaches c.
func (s Seed) selects(ctx context.Context, c *Cluster, landscape fakecluster.Reader) (bool, error) {
	if s.Server != "" {
		return s.Server == c.key, nil
	}
	if landscape == nil {
		return false, nil
	}
	list := &lsv1alpha1.TargetList{}
	ns, name := "", s.Target
	if i := strings.IndexByte(s.Target, '/'); i >= 0 {
		ns, name = s.Target[:i], s.Target[i+1:]
	}
	if err := landscape.List(ctx, list, fakecluster.ListOptions{Namespace: ns}); err != nil {
		return false, err
	}
	for i := range list.Items {
		if list.Items[i].Name != name {
			continue
		}
		key, err := Key(ctx, &list.Items[i], landscape)
		if err == nil && key == c.key {
			return true, nil
		}
	}
	return false, nil
}

// put creates obj, or updates it when it exists, with the checks and
// reactions of the cluster's client (see clusterClient). A created object
// keeps its status, as the controller that a seed stands for left it. The
// caller holds the lock.
func (c *Cluster) put(ctx context.Context, obj *unstructured.Unstructured) error {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return err
	}
	if err := c.scope(ctx, gvk, obj, true); err != nil {
		return err
	}
	live := &unstructured.Unstructured{}
	live.SetGroupVersionKind(gvk)
	err = c.inner.Get(ctx, client.ObjectKeyFromObject(obj), live)
	switch {
	case apierrors.IsNotFound(err):
		c.tracker.keepStatus = true
		err = c.inner.Create(ctx, obj)
		c.tracker.keepStatus = false
	case err == nil:
		obj.SetResourceVersion(live.GetResourceVersion())
		err = c.inner.Update(ctx, obj)
	}
	if err != nil {
		return err
	}
	return c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// sowSeeds gives the new cluster c the objects of the seeds that select
// it. The caller holds the lock.
func (c *Cluster) sowSeeds(ctx context.Context) error {
	for _, s := range c.set.opts.Seeds {
		ok, err := s.selects(ctx, c, c.set.reader())
		if err != nil {
			return fmt.Errorf("simulated cluster %s: seed: %w", c.key, err)
		}
		if !ok {
			continue
		}
		if err := c.sow(ctx, s); err != nil {
			return fmt.Errorf("simulated cluster %s: seed: %w", c.key, err)
		}
	}
	return nil
}

// seedHint says how to fix a seed that a new cluster refuses.
func (c *Cluster) seedHint(err error) string {
	var noKind *meta.NoKindMatchError
	switch {
	case errors.As(err, &noKind) && len(noKind.SearchedVersions) == 1 &&
		isBuiltin(noKind.GroupKind.WithVersion(noKind.SearchedVersions[0])):
		return fmt.Sprintf(" (Kubernetes %s does not serve it: see simulatedCluster.kubernetesVersion)", c.version())
	case meta.IsNoMatchError(err):
		return " (seed its CustomResourceDefinition too)"
	case apierrors.IsNotFound(err):
		return " (seed the Namespace too)"
	}
	return ""
}
