package action

import (
	"encoding/json"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/exports"
)

// creationOnlyDefaults names, by kind and export path, the fields that a
// kube-apiserver admission plugin fills in on an object's creation only, and
// the plugin: an update that leaves them out clears them.
var creationOnlyDefaults = map[string]string{
	"Ingress .spec.ingressClassName": "kube-apiserver's DefaultIngressClass admission sets it, on the creation only, " +
		"to the IngressClass annotated ingressclass.kubernetes.io/is-default-class \"true\" (if there is one)",
}

// clearedFieldHint explains an export of a manifest item that timed out on
// a field of an object the item applies itself, outside status, that the
// object's manifest does not set: the API server or another writer set it
// (the creation's admission, for instance), and the manifest deployer's
// update writes the manifest as it is (updateStrategy update, and patch,
// whose merge patch from the live object to the manifest removes what the
// manifest lacks), so the field is gone after the item's next update, on a
// real cluster as on a simulated one (Landscaper's
// resourcemanager/objectapplier.go). Seeding would not help. It is empty
// when that is not the case, and for updateStrategy merge or
// mergeOverwrite, which keep the live object's fields (a field an earlier
// update cleared stays cleared: the general export hint is given then).
func clearedFieldHint(di *lsv1alpha1.DeployItem, key string) string {
	ref, path, strategy, ok := unsetManifestField(di, key)
	if !ok {
		return ""
	}
	who := "Only the API server (an admission plugin, on the creation) or another writer can have set it"
	if why, ok := creationOnlyDefaults[ref.Kind+" "+path]; ok {
		who = why
	}
	return fmt.Sprintf("DeployItem %s/%s: export %q timed out: it reads %s of %s %s/%s, an object the item applies, "+
		"and its manifest does not set that field. %s. If the object was there before this job, the manifest "+
		"deployer's update (updateStrategy %q) wrote the manifest as it is and so cleared the field, on a real "+
		"cluster too, and the export waited for it until the item's timeout. To get the value: set %s in the "+
		"manifest (updateStrategy \"merge\" keeps the live object's fields on later updates, but does not "+
		"bring back one already cleared)",
		di.Namespace, di.Name, key, path, ref.Kind, ref.Namespace, ref.Name, who, strategy, strings.TrimPrefix(path, "."))
}

// unsetManifestField finds the export key of di, a manifest item with
// updateStrategy update or patch, when it reads a field outside status of
// an object the item applies whose manifest does not set that field: the
// object it reads, the field's path (with a leading dot) and the update
// strategy. ok is false when that is not the case.
func unsetManifestField(di *lsv1alpha1.DeployItem, key string) (ref *lsv1alpha1.TypedObjectReference, path, strategy string, ok bool) {
	if di.Spec.Type != deployers.ManifestType || di.Spec.Configuration == nil {
		return nil, "", "", false
	}
	cfg, decoded := manifestConfigOf(di)
	if !decoded || cfg.Exports == nil {
		return nil, "", "", false
	}
	strategy = string(cfg.UpdateStrategy)
	if strategy == "" {
		strategy = string(manifestv1alpha2.UpdateStrategyUpdate)
	}
	if strategy != string(manifestv1alpha2.UpdateStrategyUpdate) && strategy != string(manifestv1alpha2.UpdateStrategyPatch) {
		return nil, "", "", false
	}
	var export *managedresource.Export
	for i := range cfg.Exports.Exports {
		if e := &cfg.Exports.Exports[i]; e.Key == key && e.FromResource != nil && e.TargetName == nil {
			export = e
			break
		}
	}
	if export == nil {
		return nil, "", "", false
	}
	path = "." + strings.TrimPrefix(export.JSONPath, ".")
	if strings.HasPrefix(path, ".status") {
		return nil, "", "", false
	}
	ref = export.FromResource
	for _, m := range cfg.Manifests {
		if m.Manifest == nil {
			continue
		}
		var obj unstructured.Unstructured
		if err := json.Unmarshal(m.Manifest.Raw, &obj.Object); err != nil {
			continue
		}
		if obj.GetAPIVersion() != ref.APIVersion || obj.GetKind() != ref.Kind || obj.GetName() != ref.Name ||
			obj.GetNamespace() != ref.Namespace {
			continue
		}
		if _, err := exports.GetValue(path, obj.Object); err == nil {
			return nil, "", "", false
		}
		return ref, path, strategy, true
	}
	return nil, "", "", false
}
