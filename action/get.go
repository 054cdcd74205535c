package action

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/fakecluster"
)

// Get reads objects of the saved simulation and runs nothing: `lscli get`.
type Get struct {
	cfg *Configuration
	// Namespace narrows the objects; empty means every namespace.
	Namespace string
}

// NewGet returns the get action over cfg.
func NewGet(cfg *Configuration) *Get { return &Get{cfg: cfg} }

// Run returns the objects that match args, [KIND [NAME]]. An unknown kind,
// or a name that matches nothing, is invalid input.
func (a *Get) Run(_ context.Context, args []string) ([]fakecluster.Object, error) {
	ss, err := openSession(a.cfg)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	return selectObjects(ss.cluster().Objects(), a.Namespace, args)
}

// RunTarget returns the objects of the simulated cluster behind Target
// target that match args, [KIND [NAME]], where KIND is a kind in any case,
// singular or plural, or kubectl's short name for it. An unknown or
// ambiguous Target is invalid input.
func (a *Get) RunTarget(ctx context.Context, target string, args []string) ([]*unstructured.Unstructured, error) {
	ss, err := openSession(a.cfg)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	t, err := findTarget(ss.cluster().Objects(), a.Namespace, target)
	if err != nil {
		return nil, err
	}
	c, err := ss.clusters.ClusterFor(ctx, t)
	if err != nil {
		return nil, err
	}
	objs, err := c.Objects(ctx)
	if err != nil {
		return nil, err
	}
	return selectClusterObjects(objs, args), nil
}

// kindShortNames are kubectl's short names of the built-in kinds, so that
// `lscli get --target cluster cm` works as `kubectl get cm` does.
var kindShortNames = map[string]string{
	"cm": "configmap", "crd": "customresourcedefinition", "crds": "customresourcedefinition",
	"deploy": "deployment", "ds": "daemonset", "ep": "endpoints", "hpa": "horizontalpodautoscaler",
	"ing": "ingress", "netpol": "networkpolicy", "ns": "namespace", "pdb": "poddisruptionbudget",
	"po": "pod", "pv": "persistentvolume", "pvc": "persistentvolumeclaim", "rs": "replicaset",
	"sa": "serviceaccount", "sts": "statefulset", "svc": "service",
}

// selectClusterObjects keeps the objects that match args: [KIND [NAME]].
func selectClusterObjects(objs []*unstructured.Unstructured, args []string) []*unstructured.Unstructured {
	if len(args) == 0 {
		return objs
	}
	kind := strings.ToLower(args[0])
	if long, ok := kindShortNames[kind]; ok {
		kind = long
	}
	var out []*unstructured.Unstructured
	for _, o := range objs {
		k := strings.ToLower(o.GetKind())
		if (kind == k || kind == k+"s" || kind == k+"es") && (len(args) < 2 || o.GetName() == args[1]) {
			out = append(out, o)
		}
	}
	return out
}
