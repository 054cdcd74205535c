package cmd

import (
	"context"
	"io"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// getTargetRun prints the objects of the simulated cluster behind Target
// name. An unknown or ambiguous Target is invalid input.
func (f *factory) getTargetRun(ctx context.Context, s *settings, name string, args []string) error {
	if err := s.checkOutput("table", "wide", "yaml", "json"); err != nil {
		return err
	}
	ss, err := openSession(s)
	if err != nil {
		return err
	}
	defer ss.close()
	target, err := findTarget(ss.cluster().Objects(), s.Namespace, name)
	if err != nil {
		return err
	}
	var objs []*unstructured.Unstructured
	c, ok, err := ss.clusters.Cluster(ctx, simcluster.Key(target))
	if err != nil {
		return err
	}
	if ok {
		if objs, err = c.Objects(ctx); err != nil {
			return err
		}
	}
	objs = selectClusterObjects(objs, args)
	switch s.Output {
	case "yaml", "json":
		return output.ClusterList(objs, s.Output, f.streams.Out)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.ClusterTable(objs, st, s.Output == "wide"))
	return err
}

// findTarget finds the Target name, in namespace ns or, when ns is empty, in
// the only namespace that has one by that name.
func findTarget(objs []fakecluster.Object, ns, name string) (*lsv1alpha1.Target, error) {
	var found []*lsv1alpha1.Target
	for _, o := range objs {
		if t, ok := o.(*lsv1alpha1.Target); ok && t.Name == name && (ns == "" || t.Namespace == ns) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return nil, invalidf("Target %q not found%s", name, inNamespaceText(ns))
	case 1:
		return found[0], nil
	}
	var namespaces []string
	for _, t := range found {
		namespaces = append(namespaces, t.Namespace)
	}
	sort.Strings(namespaces)
	return nil, invalidf("Target %q exists in namespaces %s: choose one with -n", name, strings.Join(namespaces, ", "))
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

// selectClusterObjects keeps the objects that match args: [KIND [NAME]],
// where KIND is a kind in any case, singular or plural, or kubectl's short
// name for it.
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
