package deletion_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

var clusterObjects = []string{
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}",
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: other}",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: ns}",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: other}",
	"apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns, finalizers: [example.com/hold]}",
	"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: role}",
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: things.example.com}",
}

func mr(apiVersion, kind, ns, name string) managedresource.ManagedResourceStatus {
	return managedresource.ManagedResourceStatus{Policy: managedresource.ManagePolicy,
		Resource: corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name}}
}

var (
	mrA    = mr("v1", "ConfigMap", "ns", "a")
	mrB    = mr("v1", "ConfigMap", "ns", "b")
	mrNS   = mr("v1", "Namespace", "", "ns")
	mrRole = mr("rbac.authorization.k8s.io/v1", "ClusterRole", "", "role")
	mrCRD  = mr("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "things.example.com")
	mrS    = mr("v1", "Secret", "ns", "s")
)

func custom(force, all bool, types ...managedresource.ResourceType) managedresource.DeletionGroupDefinition {
	return managedresource.DeletionGroupDefinition{CustomResourceGroup: &managedresource.CustomResourceGroup{
		Resources: types, ForceDelete: force, DeleteAllResources: all}}
}

func predefined(t managedresource.PredefinedResourceGroupType, force bool) managedresource.DeletionGroupDefinition {
	return managedresource.DeletionGroupDefinition{PredefinedResourceGroup: &managedresource.PredefinedResourceGroup{Type: t, ForceDelete: force}}
}

func TestGroupsDelete(t *testing.T) {
	cmType := managedresource.ResourceType{APIVersion: "v1", Kind: "ConfigMap"}
	tests := []struct {
		name      string
		defs      []managedresource.DeletionGroupDefinition
		resources managedresource.ManagedResourceStatusList
		wantTrace string
		wantLeft  []string
	}{
		{name: "default order", resources: managedresource.ManagedResourceStatusList{mrCRD, mrRole, mrNS, mrA, mrB},
			wantTrace: "0:[a b] 1:[role ns] 2:[things.example.com] done",
			wantLeft:  []string{"ConfigMap other/c", "Namespace other", "Secret ns/s"}},
		{name: "nothing to delete", wantTrace: "done", wantLeft: allObjects()},
		{name: "custom group first, unmatched kept", defs: []managedresource.DeletionGroupDefinition{
			custom(false, false, managedresource.ResourceType{APIVersion: "v1", Kind: "ConfigMap", Names: []string{"b"}}),
			predefined(managedresource.PredefinedResourceGroupCRDs, false),
		}, resources: managedresource.ManagedResourceStatusList{mrA, mrB, mrCRD, mrRole},
			wantTrace: "0:[b] 1:[things.example.com] done",
			wantLeft:  []string{"ClusterRole role", "ConfigMap ns/a", "ConfigMap other/c", "Namespace ns", "Namespace other", "Secret ns/s"}},
		{name: "kind compared exactly", defs: []managedresource.DeletionGroupDefinition{
			custom(false, false, managedresource.ResourceType{APIVersion: "v1", Kind: "configmaps"}),
		}, resources: managedresource.ManagedResourceStatusList{mrA}, wantTrace: "done", wantLeft: allObjects()},
		{name: "empty group matches nothing", defs: []managedresource.DeletionGroupDefinition{
			predefined(managedresource.PredefinedResourceGroupEmpty, false),
		}, resources: managedresource.ManagedResourceStatusList{mrA}, wantTrace: "done", wantLeft: allObjects()},
		{name: "finalizer blocks without force", resources: managedresource.ManagedResourceStatusList{mrS},
			wantTrace: "0:[s] 0:[s] 0:[s] 0:[s]", wantLeft: allObjects()},
		{name: "force clears finalizers", defs: []managedresource.DeletionGroupDefinition{
			predefined(managedresource.PredefinedResourceGroupNamespacedResources, true),
		}, resources: managedresource.ManagedResourceStatusList{mrS}, wantTrace: "0:[s] done", wantLeft: without("Secret ns/s")},
		{name: "delete all resources in every namespace", defs: []managedresource.DeletionGroupDefinition{custom(false, true, cmType)},
			resources: managedresource.ManagedResourceStatusList{mrRole}, wantTrace: "0:[a b c] done",
			wantLeft: without("ConfigMap ns/a", "ConfigMap ns/b", "ConfigMap other/c")},
		{name: "delete all resources restricted", defs: []managedresource.DeletionGroupDefinition{custom(false, true,
			managedresource.ResourceType{APIVersion: "v1", Kind: "ConfigMap", Namespaces: []string{"ns"}, Names: []string{"b", "x"}})},
			resources: managedresource.ManagedResourceStatusList{mrRole}, wantTrace: "0:[b] done", wantLeft: without("ConfigMap ns/b")},
		{name: "delete all cluster-scoped by name", defs: []managedresource.DeletionGroupDefinition{custom(false, true,
			managedresource.ResourceType{APIVersion: "v1", Kind: "Namespace", Names: []string{"other", "none"}})},
			resources: managedresource.ManagedResourceStatusList{mrA}, wantTrace: "0:[other] done", wantLeft: without("Namespace other")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kubetest.NewClient(kubetest.Objects(clusterObjects...))
			g := deletion.Groups{Client: c, Definitions: tt.defs}
			if got := trace(t, g, tt.resources); got != tt.wantTrace {
				t.Errorf("trace = %q, want %q", got, tt.wantTrace)
			}
			if got := existing(t, c); strings.Join(got, ",") != strings.Join(tt.wantLeft, ",") {
				t.Errorf("left = %v, want %v", got, tt.wantLeft)
			}
		})
	}
}

func TestGroupsSecondaryTarget(t *testing.T) {
	primary := kubetest.NewClient(kubetest.Objects(clusterObjects...))
	remote := kubetest.NewClient(kubetest.Objects("apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r, namespace: ns}"))
	name := "remote"
	def := custom(false, true, managedresource.ResourceType{APIVersion: "v1", Kind: "ConfigMap"})
	def.CustomResourceGroup.TargetName = &name
	g := deletion.Groups{Client: primary, Definitions: []managedresource.DeletionGroupDefinition{def},
		Secondary: func(_ context.Context, n string) (client.Client, error) {
			if n != name {
				return nil, errors.New("unknown")
			}
			return remote, nil
		}}
	if got := trace(t, g, managedresource.ManagedResourceStatusList{mrA}); got != "0:[r] done" {
		t.Errorf("trace = %q", got)
	}
	if kubetest.Get(t, remote, "v1", "ConfigMap", "ns", "r") != nil || kubetest.Get(t, primary, "v1", "ConfigMap", "ns", "a") == nil {
		t.Errorf("want the remote ConfigMap deleted and the managed one (matched by no group) kept")
	}
}

func TestGroupsInvalid(t *testing.T) {
	name := "x"
	withTarget := custom(false, false, managedresource.ResourceType{APIVersion: "v1", Kind: "ConfigMap"})
	withTarget.CustomResourceGroup.TargetName = &name
	both := predefined(managedresource.PredefinedResourceGroupCRDs, false)
	both.CustomResourceGroup = &managedresource.CustomResourceGroup{}
	tests := []struct {
		name    string
		def     managedresource.DeletionGroupDefinition
		wantErr string
	}{
		{name: "neither", def: managedresource.DeletionGroupDefinition{}, wantErr: "either predefinedResourceGroup or customResourceGroup must be set"},
		{name: "both", def: both, wantErr: "must not both be set"},
		{name: "unknown type", def: predefined("stuff", false), wantErr: "unsupported type of predefinedResourceGroup: stuff"},
		{name: "target without delete all", def: withTarget, wantErr: "DeleteAllResources must be true if TargetName is set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := deletion.Groups{Client: kubetest.NewClient(nil), Definitions: []managedresource.DeletionGroupDefinition{tt.def}}
			_, err := g.Delete(context.Background(), managedresource.ManagedResourceStatusList{mrA})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// trace runs up to four passes and writes "<group>:[names]" per unfinished
// pass, then "done".
func trace(t *testing.T, g deletion.Groups, resources managedresource.ManagedResourceStatusList) string {
	t.Helper()
	var steps []string
	for range 4 {
		p, err := g.Delete(context.Background(), resources)
		if err != nil {
			t.Fatal(err)
		}
		if p.Done {
			return strings.Join(append(steps, "done"), " ")
		}
		names := make([]string, len(p.Remaining))
		for i, r := range p.Remaining {
			names[i] = r.Name
		}
		steps = append(steps, fmt.Sprintf("%d:[%s]", p.Group, strings.Join(names, " ")))
	}
	return strings.Join(steps, " ")
}

func allObjects() []string {
	return []string{"ClusterRole role", "ConfigMap ns/a", "ConfigMap ns/b", "ConfigMap other/c", "CustomResourceDefinition things.example.com",
		"Namespace ns", "Namespace other", "Secret ns/s"}
}

func without(gone ...string) []string {
	var out []string
	for _, o := range allObjects() {
		if !strings.Contains(strings.Join(gone, ","), o) {
			out = append(out, o)
		}
	}
	return out
}

// existing lists the objects of clusterObjects still in c (objects marked
// for deletion included), sorted.
func existing(t *testing.T, c client.Client) []string {
	t.Helper()
	var out []string
	for _, o := range kubetest.Objects(clusterObjects...) {
		if kubetest.Get(t, c, o.GetObjectKind().GroupVersionKind().GroupVersion().String(), o.GetObjectKind().GroupVersionKind().Kind, o.GetNamespace(), o.GetName()) == nil {
			continue
		}
		id := o.GetName()
		if o.GetNamespace() != "" {
			id = o.GetNamespace() + "/" + id
		}
		out = append(out, o.GetObjectKind().GroupVersionKind().Kind+" "+id)
	}
	slices.Sort(out)
	return out
}

func TestGroupsSettle(t *testing.T) {
	tests := []struct {
		name      string
		resources managedresource.ManagedResourceStatusList
		wantDone  bool
		wantLeft  string
	}{
		{name: "everything goes at once", resources: managedresource.ManagedResourceStatusList{mrCRD, mrRole, mrNS, mrA, mrB}, wantDone: true},
		{name: "stuck on a finalizer", resources: managedresource.ManagedResourceStatusList{mrA, mrS, mrNS}, wantLeft: "0:[s]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := kubetest.NewClient(kubetest.Objects(clusterObjects...))
			p, err := deletion.Groups{Client: c}.Settle(context.Background(), tt.resources)
			if err != nil {
				t.Fatal(err)
			}
			if p.Done != tt.wantDone {
				t.Fatalf("done = %v, want %v", p.Done, tt.wantDone)
			}
			if !p.Done {
				names := make([]string, len(p.Remaining))
				for i, r := range p.Remaining {
					names[i] = r.Name
				}
				if got := fmt.Sprintf("%d:[%s]", p.Group, strings.Join(names, " ")); got != tt.wantLeft {
					t.Errorf("left = %s, want %s", got, tt.wantLeft)
				}
				if kubetest.Get(t, c, "v1", "ConfigMap", "ns", "a") != nil || kubetest.Get(t, c, "v1", "Namespace", "", "ns") == nil {
					t.Errorf("want the group before the stuck one deleted and the groups after it not started")
				}
			}
		})
	}
}
