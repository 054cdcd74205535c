package simcluster

import "testing"

// bindingCases are RoleBindings and ClusterRoleBindings written to a
// cluster, and kube-apiserver's answers (outcome's form, empty when it
// passes), checked against a real one by TestRealClusterBindingValidation.
// Gatekeeper's chart 3.23.0 names the subject of its pre-delete
// ClusterRoleBinding gatekeeper-delete-webhook-configs by a value it does
// not have (preUninstall.deleteWebhookConfigurations.name), so the
// subject's name is empty: the case cluster-binding-no-subject-name.
var bindingCases = []dataCase{
	{name: "cluster-binding", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: lscli-rbac-ok}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n" +
		"subjects: [{kind: ServiceAccount, name: a, namespace: x}, {kind: User, name: u}, {kind: Group, name: g}]\n"},
	{name: "cluster-binding-no-subject-name", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: lscli-rbac-noname}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n" +
		"subjects: [{kind: ServiceAccount, name: null, namespace: x}]\n",
		want: `422 Invalid ClusterRoleBinding.rbac.authorization.k8s.io "lscli-rbac-noname" is invalid: subjects[0].name: Required value
cause FieldValueRequired subjects[0].name: Required value`},
	{name: "cluster-binding-no-subject-namespace", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: lscli-rbac-nons}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n" +
		"subjects: [{kind: ServiceAccount, name: a}]\n",
		want: `422 Invalid ClusterRoleBinding.rbac.authorization.k8s.io "lscli-rbac-nons" is invalid: subjects[0].namespace: Required value
cause FieldValueRequired subjects[0].namespace: Required value`},
	{name: "cluster-binding-role", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: lscli-rbac-role}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: view}\n",
		want: `422 Invalid ClusterRoleBinding.rbac.authorization.k8s.io "lscli-rbac-role" is invalid: roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"
cause FieldValueNotSupported roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`},
	{name: "binding-subjects", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rbac-subjects}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: \"a/b\"}\n" +
		"subjects: [{kind: ServiceAccount, name: A_b, apiGroup: rbac.authorization.k8s.io}, {kind: User, name: \"\"}, {kind: Robot, name: r}]\n",
		want: `422 Invalid RoleBinding.rbac.authorization.k8s.io "rbac-subjects" is invalid: [roleRef.name: Invalid value: "a/b": may not contain '/', subjects[0].name: Invalid value: "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: "", subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group", subjects[1].name: Required value]
cause FieldValueInvalid roleRef.name: Invalid value: "a/b": may not contain '/'
cause FieldValueInvalid subjects[0].name: Invalid value: "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
cause FieldValueNotSupported subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""
cause FieldValueNotSupported subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"
cause FieldValueRequired subjects[1].name: Required value`},
	{name: "binding-order", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rbac-order}\n" +
		"roleRef: {apiGroup: x, kind: Pod, name: \"\"}\n" +
		"subjects: [{kind: Group, name: \"\"}, {kind: ServiceAccount, name: \"\", apiGroup: z}]\n",
		want: `422 Invalid RoleBinding.rbac.authorization.k8s.io "rbac-order" is invalid: [roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io", roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole", subjects[1].apiGroup: Unsupported value: "z": supported values: "", subjects[0].name: Required value, subjects[1].name: Required value, roleRef.name: Required value]
cause FieldValueNotSupported roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"
cause FieldValueNotSupported roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"
cause FieldValueNotSupported subjects[1].apiGroup: Unsupported value: "z": supported values: ""
cause FieldValueRequired subjects[0].name: Required value
cause FieldValueRequired subjects[1].name: Required value
cause FieldValueRequired roleRef.name: Required value`},
	{name: "cluster-binding-order", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: lscli-rbac-order}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: \"\"}\n" +
		"subjects: [{kind: ServiceAccount, name: \"\"}, {kind: Robot, name: r}, {kind: ServiceAccount, name: a}]\n",
		want: `422 Invalid ClusterRoleBinding.rbac.authorization.k8s.io "lscli-rbac-order" is invalid: [subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group", subjects[2].namespace: Required value, subjects[0].name: Required value, roleRef.name: Required value]
cause FieldValueRequired subjects[0].namespace: Required value
cause FieldValueNotSupported subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"
cause FieldValueRequired subjects[2].namespace: Required value
cause FieldValueRequired subjects[0].name: Required value
cause FieldValueRequired roleRef.name: Required value`},
	{name: "binding-no-role-name", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rbac-norole}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: \"\"}\n" +
		"subjects: [{kind: ServiceAccount, name: a}]\n",
		want: `422 Invalid RoleBinding.rbac.authorization.k8s.io "rbac-norole" is invalid: roleRef.name: Required value
cause FieldValueRequired roleRef.name: Required value`},
	{name: "binding-update-subject", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rbac-update}\n" +
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n" +
		"subjects: [{kind: ServiceAccount, name: a}]\n",
		update: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rbac-update}\n" +
			"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n" +
			"subjects: [{kind: ServiceAccount, name: \"\"}]\n",
		want: `422 Invalid RoleBinding.rbac.authorization.k8s.io "rbac-update" is invalid: subjects[0].name: Required value
cause FieldValueRequired subjects[0].name: Required value`},
}

// TestBindingValidation writes each of bindingCases to a simulated
// cluster: the answers are kube-apiserver's.
func TestBindingValidation(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range bindingCases {
		if got := outcome(writeDataCase(t, f.c, "data", c)); got != c.want {
			t.Errorf("%s:\ngot:  %s\nwant: %s", c.name, got, c.want)
		}
	}
}

// roleCases are Roles and ClusterRoles written to a cluster, and
// kube-apiserver's answers, checked against a real one by
// TestRealClusterRoleValidation. Charts append their users' extraRules to
// their roles' rules with toYaml (Gatekeeper's upgradeCRDs.extraRules): a
// rule without verbs fails on a real cluster.
var roleCases = []dataCase{
	{name: "cluster-role", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: lscli-role-ok}\n" +
		"rules: [{apiGroups: [\"\"], resources: [pods], verbs: [get]}, {nonResourceURLs: [/healthz], verbs: [get]}]\n"},
	{name: "cluster-role-no-verbs", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: lscli-role-noverbs}\n" +
		"rules: [{apiGroups: [\"\"], resources: [pods]}]\n",
		want: `422 Invalid ClusterRole.rbac.authorization.k8s.io "lscli-role-noverbs" is invalid: rules[0].verbs: Required value
cause FieldValueRequired rules[0].verbs: Required value`},
	{name: "cluster-role-rules", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: lscli-role-rules}\n" +
		"rules: [{resources: [pods], verbs: [get]}, {apiGroups: [\"\"], verbs: [get]}, {apiGroups: [\"\"], resources: [pods, services], resourceNames: [a], verbs: [get]}, {nonResourceURLs: [/x], resources: [pods], verbs: [get]}]\n",
		want: `422 Invalid ClusterRole.rbac.authorization.k8s.io "lscli-role-rules" is invalid: [rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[1].resources: Required value: resource rules must supply at least one resource, rules[3].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs]
cause FieldValueRequired rules[0].apiGroups: Required value: resource rules must supply at least one api group
cause FieldValueRequired rules[1].resources: Required value: resource rules must supply at least one resource
cause FieldValueInvalid rules[3].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs`},
	{name: "role-non-resource", manifest: "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: role-nonresource}\n" +
		"rules: [{nonResourceURLs: [/healthz]}]\n",
		want: `422 Invalid Role.rbac.authorization.k8s.io "role-nonresource" is invalid: [rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs, rules[0].verbs: Required value]
cause FieldValueInvalid rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs
cause FieldValueRequired rules[0].verbs: Required value`},
}

// TestRoleValidation writes each of roleCases to a simulated cluster: the
// answers are kube-apiserver's.
func TestRoleValidation(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range roleCases {
		if got := outcome(writeDataCase(t, f.c, "data", c)); got != c.want {
			t.Errorf("%s:\ngot:  %s\nwant: %s", c.name, got, c.want)
		}
	}
}
