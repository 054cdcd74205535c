package simcluster

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// admissionPolicy is a ValidatingAdmissionPolicy named name for widgets
// (operations ops), with spec lines extra (each "  key: value", indented
// under spec) and validations.
func admissionPolicy(name, ops, extra, validations string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: " + name + "}\n" +
		"spec:\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [example.com]\n      apiVersions: ['*']\n" +
		"      operations: [" + ops + "]\n      resources: ['*']\n" + extra + "  validations:\n" + validations
}

// policyBinding binds policy with validationActions actions and match
// resources matchLines (indented under spec).
func policyBinding(name, policy, actions, matchLines string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: " + name + "}\n" +
		"spec:\n  policyName: " + policy + "\n  validationActions: [" + actions + "]\n" + matchLines
}

// widget is Widget ns/name with spec.size size and labels.
func widget(ns, name, size, labels string) string {
	return "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: " + name + ", namespace: " + ns + ", labels: {" + labels + "}}\n" +
		"spec: {size: " + size + "}\n"
}

// TestValidatingAdmissionPolicy: a write of an object that a policy and
// its binding match is refused when a validation is false and the
// binding's actions have Deny, with kube-apiserver's Invalid error and
// message (the expression, the validation's message, or its
// messageExpression); admitted when the validation holds, the binding
// only warns or audits, no binding binds the policy, the operation or the
// namespace selector does not match; an expression that fails to evaluate
// denies under failurePolicy Fail and admits under Ignore. Variables and
// the namespace object are there.
func TestValidatingAdmissionPolicy(t *testing.T) {
	const maxSize = "  - expression: object.spec.size <= 3\n"
	const forbidden = `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'max-size' with binding 'max-size' denied request: `
	tests := []struct {
		name       string
		objects    []string
		write      string
		update     bool
		wantDenial string // "" admitted
	}{
		{"denied", []string{admissionPolicy("max-size", "CREATE, UPDATE", "", maxSize), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), false, forbidden + "failed expression: object.spec.size <= 3"},
		{"holds", []string{admissionPolicy("max-size", "CREATE, UPDATE", "", maxSize), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "2", ""), false, ""},
		{"warn only", []string{admissionPolicy("max-size", "CREATE, UPDATE", "", maxSize), policyBinding("max-size", "max-size", "Warn, Audit", "")},
			widget("default", "w", "5", ""), false, ""},
		{"no binding", []string{admissionPolicy("max-size", "CREATE, UPDATE", "", maxSize)},
			widget("default", "w", "5", ""), false, ""},
		{"message", []string{admissionPolicy("max-size", "CREATE", "", maxSize+"    message: ' at most 3 '\n"), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), false, forbidden + "at most 3"},
		{"message expression and variable", []string{
			admissionPolicy("max-size", "CREATE", "  variables:\n  - {name: limit, expression: '3'}\n",
				"  - expression: object.spec.size <= variables.limit\n    messageExpression: \"'size ' + string(object.spec.size) + ' in ' + namespaceObject.metadata.name\"\n    reason: Forbidden\n"),
			policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), false, forbidden + "size 5 in default"},
		{"update not matched", []string{admissionPolicy("max-size", "CREATE", "", maxSize), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), true, ""},
		{"update matched, oldObject", []string{admissionPolicy("max-size", "UPDATE", "", "  - expression: object.spec.size <= oldObject.spec.size\n"), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), true, forbidden + "failed expression: object.spec.size <= oldObject.spec.size"},
		{"binding's namespace selector", []string{admissionPolicy("max-size", "CREATE", "", maxSize),
			policyBinding("max-size", "max-size", "Deny", "  matchResources:\n    namespaceSelector: {matchLabels: {strict: \"true\"}}\n")},
			widget("default", "w", "5", ""), false, ""},
		{"policy's object selector", []string{admissionPolicy("max-size", "CREATE", "    objectSelector: {matchLabels: {tier: gold}}\n", maxSize),
			policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", "tier: gold"), false, forbidden + "failed expression: object.spec.size <= 3"},
		{"evaluation fails, Fail", []string{admissionPolicy("max-size", "CREATE", "", "  - expression: object.spec.missing <= 3\n"), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), false, forbidden + "expression 'object.spec.missing <= 3' resulted in error: no such key: missing"},
		{"evaluation fails, Ignore", []string{admissionPolicy("max-size", "CREATE", "  failurePolicy: Ignore\n", "  - expression: object.spec.missing <= 3\n"), policyBinding("max-size", "max-size", "Deny", "")},
			widget("default", "w", "5", ""), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(crdManifest)
			f.create(tt.objects...)
			var err error
			if tt.update {
				f.create(widget("default", "w", "2", ""))
				u := obj(t, tt.write)
				old := f.get("example.com/v1", "Widget", "default", "w")
				u.SetResourceVersion(old.GetResourceVersion())
				err = f.c.Update(context.Background(), u)
			} else {
				err = f.c.Create(context.Background(), obj(t, tt.write))
			}
			if tt.wantDenial == "" {
				if err != nil {
					t.Fatalf("write refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("write admitted, want %q", tt.wantDenial)
			}
			if err.Error() != tt.wantDenial {
				t.Errorf("error = %q\nwant    %q", err.Error(), tt.wantDenial)
			}
			wantCode := int32(422)
			if strings.Contains(tt.name, "message expression") {
				wantCode = 403
			}
			var status apierrors.APIStatus
			if s, ok := err.(apierrors.APIStatus); ok {
				status = s
			}
			if status == nil || status.Status().Code != wantCode {
				t.Errorf("status = %+v, want code %d", status, wantCode)
			}
		})
	}
	// A server-side apply goes through the policy as well.
	t.Run("apply", func(t *testing.T) {
		f := newFixture(t)
		f.create(crdManifest, admissionPolicy("max-size", "CREATE, UPDATE", "", maxSize), policyBinding("max-size", "max-size", "Deny", ""))
		err := f.c.Apply(context.Background(), client.ApplyConfigurationFromUnstructured(obj(t, widget("default", "w", "5", ""))),
			client.FieldOwner("test"), client.ForceOwnership)
		if err == nil || !strings.Contains(err.Error(), "denied request: failed expression") {
			t.Errorf("apply error = %v, want the policy's denial", err)
		}
	})
}
