package landscape

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/suggest"
)

// kindInfo describes a kind that a landscape file may hold.
type kindInfo struct {
	gvk schema.GroupVersionKind
	// validate returns what is wrong with a decoded and defaulted object of
	// this kind, each message starting with the field path.
	validate func(obj fakecluster.Object) []string
}

// kinds are the kinds a landscape file may hold, sorted by group and kind.
var kinds = []kindInfo{
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("ComponentVersionOverwrites")},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("Context")},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("DataObject")},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("DeployItem"), validate: validateDeployItem},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("Execution"), validate: validateExecution},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("Installation"), validate: validateInstallation},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("Target"), validate: validateTarget},
	{gvk: lsv1alpha1.SchemeGroupVersion.WithKind("TargetSync")},
	{gvk: corev1.SchemeGroupVersion.WithKind("ConfigMap")},
	{gvk: corev1.SchemeGroupVersion.WithKind("Secret")},
}

// notObjects explains kinds that people put in landscape files by mistake.
var notObjects = map[string]string{
	"Blueprint": "a Blueprint is not an API object: put it into an Installation's " +
		"spec.blueprint.inline.filesystem as the file blueprint.yaml",
	"InstallationTemplate": "an InstallationTemplate is part of a blueprint (subinstallations), " +
		"not an API object: write an Installation",
	"List": "a List is not supported: write its items as separate documents, separated by ---",
}

// authKinds are kinds that give Landscaper's deployers access to the
// resource cluster (a self Target's ServiceAccount and its RBAC, as in the
// guided tour's targets/02-self-targets). lscli authenticates nothing, so
// it needs none of them.
var authKinds = map[string]bool{
	"ServiceAccount": true, "ClusterRoleBinding": true, "RoleBinding": true, "ClusterRole": true, "Role": true,
}

// Kinds returns the kinds a landscape file may hold, sorted by group and kind.
func Kinds() []schema.GroupVersionKind {
	gvks := make([]schema.GroupVersionKind, len(kinds))
	for i, k := range kinds {
		gvks[i] = k.gvk
	}
	return gvks
}

// lookupKind finds the kind of a document from its apiVersion and kind. When
// there is none, it says why.
func lookupKind(apiVersion, kind string) (kindInfo, string) {
	switch {
	case apiVersion == "" && kind == "":
		return kindInfo{}, "apiVersion and kind are missing (known: " + knownKinds() + ")"
	case kind == "":
		return kindInfo{}, fmt.Sprintf("kind is missing (known in %s: %s)", apiVersion, knownKinds())
	}
	for _, k := range kinds {
		if k.gvk.Kind != kind {
			continue
		}
		if want := k.gvk.GroupVersion().String(); apiVersion != want {
			if apiVersion == "" {
				return kindInfo{}, fmt.Sprintf("apiVersion is missing (want %s for kind %s)", want, kind)
			}
			return kindInfo{}, fmt.Sprintf("unknown apiVersion %q for kind %s (want %s)", apiVersion, kind, want)
		}
		return k, ""
	}
	if why, ok := notObjects[kind]; ok {
		return kindInfo{}, fmt.Sprintf("unknown kind %q: %s", kind, why)
	}
	if authKinds[kind] {
		return kindInfo{}, fmt.Sprintf("unknown kind %q: lscli authenticates nothing, so the ServiceAccounts and RBAC "+
			"objects that self and OIDC Targets need on a cluster are not needed: leave them out of the folders it reads, "+
			"or name the files to apply", kind)
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.gvk.Kind
	}
	if near := suggest.Closest(kind, names); near != "" {
		return kindInfo{}, fmt.Sprintf("unknown kind %q (did you mean %q?)", kind, near)
	}
	return kindInfo{}, fmt.Sprintf("unknown kind %q (known: %s): lscli applies only these; "+
		"keep other manifests out of the folders it reads, or name the files to apply", kind, knownKinds())
}

// knownKinds lists the kinds by apiVersion, like
// "landscaper.gardener.cloud/v1alpha1 Context, DataObject; v1 ConfigMap".
func knownKinds() string {
	var groups []string
	var names []string
	for i, k := range kinds {
		names = append(names, k.gvk.Kind)
		gv := k.gvk.GroupVersion()
		if i+1 == len(kinds) || kinds[i+1].gvk.GroupVersion() != gv {
			groups = append(groups, gv.String()+" "+strings.Join(names, ", "))
			names = nil
		}
	}
	return strings.Join(groups, "; ")
}
