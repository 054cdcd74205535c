package simcluster

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestMutatingWebhooks: the mutating webhooks that see updates of an
// object are those whose rules match its resource (any failurePolicy) and
// whose selectors select it; validating webhooks and other resources'
// webhooks are not listed. CloudNativePG's mcluster.cnpg.io sees its
// Clusters.
func TestMutatingWebhooks(t *testing.T) {
	f := newFixture(t)
	f.create(unservedCRDManifest,
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"b-defaults"},"webhooks":[`+
			`{"name":"mdoohickey.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","failurePolicy":"Ignore","clientConfig":{"url":"https://x.example.com/m"},"rules":[{"apiGroups":["unserved.example.com"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["doohickeys"]}]},`+
			`{"name":"mpod.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":{"url":"https://x.example.com/p"},"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["pods"]}]},`+
			`{"name":"mcreate.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":{"url":"https://x.example.com/c"},"rules":[{"apiGroups":["*"],"apiVersions":["*"],"operations":["CREATE"],"resources":["*"]}]}]}`,
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"a-labelled"},"webhooks":[`+
			`{"name":"mlabelled.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":{"url":"https://x.example.com/l"},"objectSelector":{"matchLabels":{"team":"a"}},"rules":[{"apiGroups":["*"],"apiVersions":["*"],"operations":["*"],"resources":["*"]}]}]}`,
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"checks"},"webhooks":[`+
			`{"name":"vdoohickey.example.com","admissionReviewVersions":["v1"],"sideEffects":"None","clientConfig":{"url":"https://x.example.com/v"},"rules":[{"apiGroups":["unserved.example.com"],"apiVersions":["v1"],"operations":["*"],"resources":["doohickeys"]}]}]}`,
		`{"apiVersion":"unserved.example.com/v1","kind":"Doohickey","metadata":{"name":"d","namespace":"default","labels":{"team":"a"}}}`,
		`{"apiVersion":"unserved.example.com/v1","kind":"Doohickey","metadata":{"name":"e","namespace":"default"}}`)
	ctx := context.Background()
	gvk := schema.GroupVersionKind{Group: "unserved.example.com", Version: "v1", Kind: "Doohickey"}
	for _, tc := range []struct {
		name string
		gvk  schema.GroupVersionKind
		obj  string
		want []MutatingWebhook
	}{
		{"labelled", gvk, "d", []MutatingWebhook{{"a-labelled", "mlabelled.example.com"}, {"b-defaults", "mdoohickey.example.com"}}},
		{"unlabelled", gvk, "e", []MutatingWebhook{{"b-defaults", "mdoohickey.example.com"}}},
		{"other resource", schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "e", nil},
		{"not served", schema.GroupVersionKind{Group: "unserved.example.com", Version: "v3", Kind: "Doohickey"}, "d", nil},
	} {
		got, err := f.clusters.MutatingWebhooks(ctx, f.target, tc.gvk, "default", tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
