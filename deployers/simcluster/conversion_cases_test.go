package simcluster

import (
	"fmt"
	"strings"
)

// conversionCRD is a CRD of group NAME.lscli.test serving Things in
// v1beta1 and v1 (the storage version), converted by the webhook of the
// Service service in namespace default, or with strategy None when
// service is "".
func conversionCRD(name, service string) string {
	conversion := "{strategy: None}"
	if service != "" {
		conversion = fmt.Sprintf("{strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {service: {name: %s, namespace: default, path: /convert}}}}", service)
	}
	return strings.NewReplacer("NAME", name, "CONVERSION", conversion).Replace(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.NAME.lscli.test}
spec:
  group: NAME.lscli.test
  scope: Namespaced
  names: {kind: Thing, plural: things}
  conversion: CONVERSION
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`)
}

// conversionThing is a Thing of conversionCRD("none", ...) in version
// named name, in namespace default.
func conversionThing(version, name string) string {
	return fmt.Sprintf(`{"apiVersion":"none.lscli.test/%s","kind":"Thing","metadata":{"name":%q,"namespace":"default"},"spec":{"size":3}}`, version, name)
}
