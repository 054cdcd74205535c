package simcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// crdValidateTemplate is a valid CRD of group NAME.lscli.test whose
// versions are VERSIONS (indented for spec.versions' items) and scope
// SCOPE.
const crdValidateTemplate = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.NAME.lscli.test}
spec:
  group: NAME.lscli.test
  scope: SCOPE
  names: {kind: Thing, plural: things}
  versions:
VERSIONS`

// crdVersion is one item of spec.versions with a structural schema.
func crdVersion(name string, storage bool) string {
	return fmt.Sprintf(`  - name: %s
    served: true
    storage: %t
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`, name, storage)
}

// crdValidateManifest is crdValidateTemplate with name, scope and versions.
func crdValidateManifest(name, scope string, versions ...string) string {
	r := strings.NewReplacer("NAME", name, "SCOPE", scope, "VERSIONS", strings.Join(versions, ""))
	return r.Replace(crdValidateTemplate)
}

// crdCreateCases are CRDs that kube-apiserver refuses to create (and one
// it accepts), by what is wrong with them.
var crdCreateCases = map[string]string{
	"valid":              crdValidateManifest("valid", "Namespaced", crdVersion("v1", true)),
	"no storage version": crdValidateManifest("nostorage", "Namespaced", crdVersion("v1beta1", false), crdVersion("v1", false)),
	"two storage":        crdValidateManifest("twostorage", "Namespaced", crdVersion("v1beta1", true), crdVersion("v1", true)),
	"duplicate version":  crdValidateManifest("dupversion", "Namespaced", crdVersion("v1", true), crdVersion("v1", false)),
	"invalid version":    crdValidateManifest("badversion", "Namespaced", crdVersion("V1", true)),
	"invalid scope":      crdValidateManifest("badscope", "Global", crdVersion("v1", true)),
	"name not plural.group": strings.Replace(crdValidateManifest("mismatch", "Namespaced", crdVersion("v1", true)),
		"name: things.mismatch", "name: widgets.mismatch", 1),
	"group without a dot": strings.ReplaceAll(crdValidateManifest("nodot", "Namespaced", crdVersion("v1", true)), "nodot.lscli.test", "nodot"),
	"no schema": crdValidateManifest("noschema", "Namespaced", `  - name: v1
    served: true
    storage: true
`),
	"non-structural": crdValidateManifest("nonstructural", "Namespaced", `  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {properties: {size: {type: integer}}}
`),
	"webhook without review versions": strings.Replace(crdValidateManifest("noreview", "Namespaced", crdVersion("v1beta1", false), crdVersion("v1", true)),
		"  versions:", "  conversion: {strategy: Webhook, webhook: {clientConfig: {service: {name: conv, namespace: default}}}}\n  versions:", 1),
}

// crdUpdateCase is a CRD created as create and then updated to update.
type crdUpdateCase struct {
	create, update string
}

// crdUpdateCases are updates of CRDs: ones kube-apiserver refuses (a
// change of scope, dropping a version still in status.storedVersions) and
// ones it accepts, adding the new storage version to storedVersions.
var crdUpdateCases = map[string]crdUpdateCase{
	"scope change": {
		crdValidateManifest("scope", "Namespaced", crdVersion("v1", true)),
		crdValidateManifest("scope", "Cluster", crdVersion("v1", true))},
	"new storage version": {
		crdValidateManifest("storage", "Namespaced", crdVersion("v1alpha1", true)),
		crdValidateManifest("storage", "Namespaced", crdVersion("v1alpha1", false), crdVersion("v1", true))},
	"drop a stored version": {
		crdValidateManifest("drop", "Namespaced", crdVersion("v1alpha1", true)),
		crdValidateManifest("drop", "Namespaced", crdVersion("v1", true))},
}

// storedVersions reads status.storedVersions of the CRD named name
// through c.
func storedVersions(t *testing.T, c client.Client, name string) string {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("apiextensions.k8s.io/v1")
	u.SetKind("CustomResourceDefinition")
	if err := c.Get(context.Background(), client.ObjectKey{Name: name}, u); err != nil {
		t.Fatalf("get CRD %s: %v", name, err)
	}
	v, _, _ := unstructured.NestedStringSlice(u.Object, "status", "storedVersions")
	return strings.Join(v, ",")
}

// updateCRD writes manifest over the stored CRD of its name through c.
func updateCRD(t *testing.T, c client.Client, manifest string) error {
	t.Helper()
	u := obj(t, manifest)
	stored := &unstructured.Unstructured{}
	stored.SetGroupVersionKind(u.GroupVersionKind())
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(u), stored); err != nil {
		t.Fatal(err)
	}
	u.SetResourceVersion(stored.GetResourceVersion())
	return c.Update(context.Background(), u)
}
