package simcluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// certgenJob is the pattern of kube-webhook-certgen (ingress-nginx,
// kube-prometheus-stack): a Job whose container writes the Secret its
// --secret-name flag names, which a Deployment then mounts.
const certgenJob = `
apiVersion: batch/v1
kind: Job
metadata: {name: admission-create, namespace: default}
spec:
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: create
        image: registry.k8s.io/ingress-nginx/kube-webhook-certgen:v1.5.2
        args: [create, --host=controller-admission, --namespace=$(POD_NAMESPACE), --secret-name=admission]
        env: [{name: POD_NAMESPACE, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}]
`

// mountsAdmission is a Deployment whose pods mount Secret admission.
var mountsAdmission = workload("Deployment", `
      containers: [{name: c, image: controller}]
      volumes: [{name: webhook-cert, secret: {secretName: admission}}]
`)

// TestCompletedJobWritesTheSecretItNames: a Job that completes on a
// simulated cluster is taken to have written the Secrets and ConfigMaps
// its containers name by flag or environment variable (--secret-name=X,
// CONFIGMAP_NAME=X), as the containers would on a real cluster; so a
// workload that mounts one becomes ready, also when the Job is gone.
func TestCompletedJobWritesTheSecretItNames(t *testing.T) {
	f := newFixture(t)
	f.create(certgenJob)
	s := f.get("v1", "Secret", "default", "admission")
	if got := s.GetAnnotations()[writtenByAnnotation]; got != "Job default/admission-create" {
		t.Errorf("annotation %s = %q, want the Job", writtenByAnnotation, got)
	}
	if err := f.c.Delete(context.Background(), obj(t, certgenJob)); err != nil {
		t.Fatal(err)
	}
	f.create(mountsAdmission)
	f.clock.Step(podStartDelay) // its pods start after the Job (podstart.go)
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("not ready; status: %v", u.Object["status"])
	}
}

// TestJobWritesOnlyWhatItNames: what a completing Job does not write: a
// Secret that exists already (left as it is), names behind flags that do
// not name a Secret or ConfigMap, values that are no object names or need
// an expansion, and nothing when the Job fails or has not completed.
func TestJobWritesOnlyWhatItNames(t *testing.T) {
	job := func(name, args, env string) string {
		return strings.NewReplacer("NAME", name, "ARGS", args, "ENV", env).Replace(`
apiVersion: batch/v1
kind: Job
metadata: {name: NAME, namespace: default}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: tool, args: ARGS, env: ENV}]
`)
	}
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Job", Name: "failing"}, Fail: "exit 1"},
		RuleConfig{Match: MatchConfig{Kind: "Job", Name: "hanging"}, Hang: true})
	f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: kept, namespace: default}\nstringData: {k: v}\n")
	f.create(
		job("kept-job", "[--secret-name=kept]", "[]"),
		job("others", `[--client-secret=hunter2, --secret-key=x, --name=plain, "--secret-name=$(NAME)", --secret-name=Not_A_Name, --config-map-name=]`, "[{name: SECRET, value: s3cr3t}]"),
		job("failing", "[--secret-name=from-failing]", "[]"),
		job("hanging", "[--secret-name=from-hanging]", "[]"),
		job("two-tokens", "[--tls-secret-name, tls, --configmap-name=settings]", "[{name: CA_SECRET_NAME, value: ca}, {name: BUNDLE_CONFIGMAP_NAME, value: bundle}]"),
	)
	if got := f.get("v1", "Secret", "default", "kept"); got.GetAnnotations()[writtenByAnnotation] != "" {
		t.Errorf("an existing Secret was written: %v", got.GetAnnotations())
	}
	for _, want := range []struct{ kind, name string }{{"Secret", "tls"}, {"ConfigMap", "settings"}, {"Secret", "ca"}, {"ConfigMap", "bundle"}} {
		if got := f.get("v1", want.kind, "default", want.name); got.GetAnnotations()[writtenByAnnotation] != "Job default/two-tokens" {
			t.Errorf("%s %s: annotations %v", want.kind, want.name, got.GetAnnotations())
		}
	}
	secrets := &unstructured.UnstructuredList{}
	secrets.SetAPIVersion("v1")
	secrets.SetKind("SecretList")
	if err := f.c.List(context.Background(), secrets, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range secrets.Items {
		names = append(names, s.GetName())
	}
	if got := strings.Join(names, " "); got != "ca kept tls" {
		t.Errorf("Secrets %q, want only ca, kept and tls", got)
	}
}

// TestRunningOperatorWritesTheSecretItNames is KEDA's pattern (kedacore/
// charts, keda 2.20.2): the operator Deployment mounts the Secret its
// --cert-secret-name flag names optionally and writes it itself (its
// certificate rotation), and the metrics API server's Deployment mounts it
// without optional, so on a real cluster it waits for the operator. A
// long-running workload whose pods run is taken to have written what its
// containers name, as a completed Job is; one that is not ready writes
// nothing.
func TestRunningOperatorWritesTheSecretItNames(t *testing.T) {
	for _, kind := range []string{"Deployment", "StatefulSet", "DaemonSet"} {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			f.create(strings.Replace(workload("Deployment", `
      containers: [{name: c, image: server}]
      volumes: [{name: certificates, secret: {secretName: kedaorg-certs}}]
`), "name: w", "name: metrics-apiserver", 1))
			if u := f.get("apps/v1", "Deployment", "default", "metrics-apiserver"); ready(t, u) {
				t.Fatalf("ready before the Secret exists; status: %v", u.Object["status"])
			}
			f.create(workload(kind, `
      containers: [{name: c, image: operator, args: [--cert-dir=/certs, --cert-secret-name=kedaorg-certs]}]
      volumes: [{name: certificates, secret: {secretName: kedaorg-certs, optional: true}}]
`))
			s := f.get("v1", "Secret", "default", "kedaorg-certs")
			if got := s.GetAnnotations()[writtenByAnnotation]; got != kind+" default/w" {
				t.Errorf("annotation %s = %q, want the %s", writtenByAnnotation, got, kind)
			}
			if u := f.get("apps/v1", "Deployment", "default", "metrics-apiserver"); !ready(t, u) {
				t.Errorf("not ready; status: %v", u.Object["status"])
			}
		})
	}
}

// redisSecretInit is argo-cd's pattern (argoproj/argo-helm, argo-cd
// 10.1.1, templates/redis-secret-init): a pre-install hook Job runs
// `argocd admin redis-initial-password`, which creates Secret argocd-redis
// with key auth; no flag names it, the Job's Role does (get on it, create
// on Secrets). ROLE stands for the Role's rules.
const redisSecretInit = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: redis-secret-init, namespace: default}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: redis-secret-init, namespace: default}
rules: ROLE
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: redis-secret-init, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: redis-secret-init}
subjects: [{kind: ServiceAccount, name: redis-secret-init, namespace: default}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: redis-secret-init, namespace: default}
spec:
  template:
    spec:
      restartPolicy: OnFailure
      serviceAccountName: redis-secret-init
      containers: [{name: secret-init, image: quay.io/argoproj/argocd:v3.4.4, command: [argocd, admin, redis-initial-password]}]
`

// readsRedisAuth is a Deployment whose container reads key auth of Secret
// argocd-redis into its environment, without optional (argo-cd's redis
// and its servers).
var readsRedisAuth = workload("Deployment", `
      containers:
      - name: redis
        image: redis
        env: [{name: REDIS_PASSWORD, valueFrom: {secretKeyRef: {name: argocd-redis, key: auth, optional: false}}}]
`)

// TestCompletedJobWritesTheSecretItsRoleNames: a completed Job whose
// ServiceAccount may create Secrets (its Role or ClusterRole, bound in the
// Job's namespace or cluster-wide) is taken to have written the Secrets a
// rule of that role names (resourceNames), as argo-cd's redis-secret-init
// writes argocd-redis. What such a container writes is not known: a pod
// that reads a key of it finds it. A Role that may not create Secrets, or
// names none, writes nothing.
func TestCompletedJobWritesTheSecretItsRoleNames(t *testing.T) {
	argo := `[{apiGroups: [""], resources: [secrets], resourceNames: [argocd-redis], verbs: [get]}, {apiGroups: [""], resources: [secrets], verbs: [create]}]`
	f := newFixture(t)
	f.create(strings.Split(strings.Replace(redisSecretInit, "ROLE", argo, 1), "---")...)
	s := f.get("v1", "Secret", "default", "argocd-redis")
	if got := s.GetAnnotations()[writtenByAnnotation]; got != "Job default/redis-secret-init" {
		t.Errorf("annotation %s = %q, want the Job", writtenByAnnotation, got)
	}
	f.create(readsRedisAuth)
	f.clock.Step(podStartDelay)
	if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
		t.Errorf("not ready; status: %v", u.Object["status"])
	}

	t.Run("cluster role", func(t *testing.T) {
		f := newFixture(t)
		m := strings.Replace(redisSecretInit, "ROLE", argo, 1)
		m = strings.Replace(m, "kind: Role\nmetadata: {name: redis-secret-init, namespace: default}", "kind: ClusterRole\nmetadata: {name: redis-secret-init}", 1)
		m = strings.Replace(m, "kind: RoleBinding\nmetadata: {name: redis-secret-init, namespace: default}", "kind: ClusterRoleBinding\nmetadata: {name: redis-secret-init}", 1)
		m = strings.Replace(m, "kind: Role, name", "kind: ClusterRole, name", 1)
		if n := strings.Count(m, "kind: ClusterRole"); n != 3 {
			t.Fatalf("%d ClusterRole kinds in the manifests, want 3", n)
		}
		f.create(strings.Split(m, "---")...)
		if got := f.get("v1", "Secret", "default", "argocd-redis").GetAnnotations()[writtenByAnnotation]; got != "Job default/redis-secret-init" {
			t.Errorf("annotation %s = %q, want the Job", writtenByAnnotation, got)
		}
	})
	for name, rules := range map[string]string{
		"read only":   `[{apiGroups: [""], resources: [secrets], resourceNames: [argocd-redis], verbs: [get, update]}]`,
		"no names":    `[{apiGroups: [""], resources: [secrets], verbs: [get, create]}]`,
		"other group": `[{apiGroups: [apps], resources: [secrets], resourceNames: [argocd-redis], verbs: [get]}, {apiGroups: [apps], resources: [secrets], verbs: [create]}]`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.create(strings.Split(strings.Replace(redisSecretInit, "ROLE", rules, 1), "---")...)
			list := &unstructured.UnstructuredList{}
			list.SetAPIVersion("v1")
			list.SetKind("SecretList")
			if err := f.c.List(context.Background(), list, client.InNamespace("default")); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != 0 {
				t.Errorf("Secrets written: %v", list.Items)
			}
		})
	}
}
