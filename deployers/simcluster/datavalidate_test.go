package simcluster

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// dataCase is a Secret or ConfigMap written to a cluster, and the answer
// kube-apiserver gives (outcome's form, empty when it passes).
type dataCase struct {
	name string
	// manifest is the object without metadata.namespace; BIG(n) stands
	// for n bytes of base64 (in data, binaryData) and TEXT(n) for n bytes
	// of text (in stringData, ConfigMap data).
	manifest string
	// update, when set, replaces the created object with this manifest.
	update string
	want   string
}

// dataCases are checked against kube-apiserver by
// TestRealClusterDataValidation (the answers below are its own).
var dataCases = []dataCase{
	{name: "secret-key", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-key}\ndata: {\"a b\": eA==}\n",
		want: `422 Invalid Secret "s-key" is invalid: data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')
cause FieldValueInvalid data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
	{name: "secret-at-limit", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-limit}\ndata: {a: BIG(1048576)}\n"},
	{name: "secret-too-large", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-large}\ndata: {a: BIG(600000), b: BIG(600000)}\n",
		want: `422 Invalid Secret "s-large" is invalid: data: Too long: may not be more than 1048576 bytes
cause FieldValueTooLong data: Too long: may not be more than 1048576 bytes`},
	{name: "secret-stringdata-too-large", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-string}\nstringData: {a: TEXT(1048577)}\n",
		want: `422 Invalid Secret "s-string" is invalid: data: Too long: may not be more than 1048576 bytes
cause FieldValueTooLong data: Too long: may not be more than 1048576 bytes`},
	{name: "secret-grows-too-large", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-grow}\ndata: {a: BIG(600000)}\n",
		update: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-grow}\ndata: {a: BIG(600000), b: BIG(600000)}\n",
		want: `422 Invalid Secret "s-grow" is invalid: data: Too long: may not be more than 1048576 bytes
cause FieldValueTooLong data: Too long: may not be more than 1048576 bytes`},
	{name: "secret-tls", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-tls}\ntype: kubernetes.io/tls\ndata: {tls.crt: eA==}\n",
		want: `422 Invalid Secret "s-tls" is invalid: data[tls.key]: Required value
cause FieldValueRequired data[tls.key]: Required value`},
	{name: "secret-dockerconfigjson", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-docker}\ntype: kubernetes.io/dockerconfigjson\nstringData: {.dockerconfigjson: \"{auths\"}\n",
		want: `422 Invalid Secret "s-docker" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'a' looking for beginning of object key string
cause FieldValueInvalid data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'a' looking for beginning of object key string`},
	{name: "secret-dockercfg", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-dockercfg}\ntype: kubernetes.io/dockercfg\n",
		want: `422 Invalid Secret "s-dockercfg" is invalid: data[.dockercfg]: Required value
cause FieldValueRequired data[.dockercfg]: Required value`},
	{name: "secret-basic-auth", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-basic}\ntype: kubernetes.io/basic-auth\n",
		want: `422 Invalid Secret "s-basic" is invalid: [data[username]: Required value, data[password]: Required value]
cause FieldValueRequired data[username]: Required value
cause FieldValueRequired data[password]: Required value`},
	{name: "secret-basic-auth-password", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-basic-pw}\ntype: kubernetes.io/basic-auth\nstringData: {password: \"\"}\n"},
	{name: "secret-ssh-auth", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-ssh}\ntype: kubernetes.io/ssh-auth\nstringData: {ssh-privatekey: \"\"}\n",
		want: `422 Invalid Secret "s-ssh" is invalid: data[ssh-privatekey]: Required value
cause FieldValueRequired data[ssh-privatekey]: Required value`},
	{name: "secret-token", manifest: "apiVersion: v1\nkind: Secret\nmetadata: {name: s-token}\ntype: kubernetes.io/service-account-token\n",
		want: `422 Invalid Secret "s-token" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value
cause FieldValueRequired metadata.annotations[kubernetes.io/service-account.name]: Required value`},
	{name: "configmap-duplicate", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c-dup}\ndata: {a: x}\nbinaryData: {a: eA==}\n",
		want: `422 Invalid ConfigMap "c-dup" is invalid: data[a]: Invalid value: "a": duplicate of key present in binaryData
cause FieldValueInvalid data[a]: Invalid value: "a": duplicate of key present in binaryData`},
	{name: "configmap-binary-key", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c-key}\nbinaryData: {\"a/b\": eA==}\n",
		want: `422 Invalid ConfigMap "c-key" is invalid: binaryData[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')
cause FieldValueInvalid binaryData[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
	{name: "configmap-too-large", manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c-large}\ndata: {a: TEXT(700000)}\nbinaryData: {b: BIG(400000)}\n",
		want: `422 Invalid ConfigMap "c-large" is invalid: []: Too long: may not be more than 1048576 bytes
cause FieldValueTooLong []: Too long: may not be more than 1048576 bytes`},
}

// expand replaces BIG(n) and TEXT(n) in a case's manifest.
func expand(manifest string) string {
	for _, marker := range []string{"BIG(", "TEXT("} {
		for {
			i := strings.Index(manifest, marker)
			if i < 0 {
				break
			}
			j := strings.Index(manifest[i:], ")") + i
			n := 0
			for _, d := range manifest[i+len(marker) : j] {
				n = n*10 + int(d-'0')
			}
			value := strings.Repeat("x", n)
			if marker == "BIG(" {
				value = base64.StdEncoding.EncodeToString([]byte(value))
			}
			manifest = manifest[:i] + value + manifest[j+1:]
		}
	}
	return manifest
}

// writeDataCase creates the case's object in ns, then updates it when the
// case has an update; it returns the answer of the last write.
func writeDataCase(t *testing.T, cl client.Client, ns string, c dataCase) error {
	t.Helper()
	ctx := context.Background()
	o := obj(t, expand(c.manifest))
	o.SetNamespace(ns)
	err := cl.Create(ctx, o)
	if err == nil {
		t.Cleanup(func() { _ = cl.Delete(ctx, o) })
	}
	if c.update == "" || err != nil {
		return err
	}
	next := obj(t, expand(c.update))
	next.SetNamespace(ns)
	return updateWhole(t, cl, c.name, next)
}

// TestDataValidation writes each of dataCases to a simulated cluster: the
// answers are kube-apiserver's.
func TestDataValidation(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range dataCases {
		if got := outcome(writeDataCase(t, f.c, "data", c)); got != c.want {
			t.Errorf("%s:\ngot:  %s\nwant: %s", c.name, got, c.want)
		}
	}
}

// TestDataValidationOfApply: a server-side apply is validated as the
// object it makes.
func TestDataValidationOfApply(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	o := obj(t, expand("apiVersion: v1\nkind: Secret\nmetadata: {name: applied, namespace: data}\ndata: {a: BIG(1048577)}\n"))
	err := f.c.Patch(context.Background(), o, client.Apply, client.FieldOwner("test"), client.ForceOwnership)
	want := `422 Invalid Secret "applied" is invalid: data: Too long: may not be more than 1048576 bytes
cause FieldValueTooLong data: Too long: may not be more than 1048576 bytes`
	if got := outcome(err); got != want {
		t.Errorf("got:  %s\nwant: %s", got, want)
	}
}
