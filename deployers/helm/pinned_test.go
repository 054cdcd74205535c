package helm

import (
	"context"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// generatedSecretChart is MinIO's pattern: a Secret whose password lookup
// keeps (else randAlphaNum generates it), a Deployment whose pod template
// has a checksum of the Secret's template, and a post-install Job hook
// (the make-bucket job) that pauses the install on a simulated cluster.
func generatedSecretChart() *chart.Chart {
	helpers := `{{- define "app.password" -}}
{{- $s := (lookup "v1" "Secret" .Release.Namespace "app").data -}}
{{- if $s }}{{ index $s "password" | b64dec }}{{ else }}{{ randAlphaNum 40 }}{{ end -}}
{{- end -}}
`
	secret := "apiVersion: v1\nkind: Secret\nmetadata: {name: app}\ndata:\n  password: {{ include \"app.password\" . | b64enc | quote }}\n"
	deploy := `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata:
      labels: {app: app}
      annotations:
        checksum/secrets: {{ include (print $.Template.BasePath "/secret.yaml") . | sha256sum }}
    spec: {containers: [{name: c, image: i}]}
`
	job := `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: post-install,post-upgrade
    helm.sh/hook-delete-policy: hook-succeeded,before-hook-creation
spec:
  template:
    spec:
      restartPolicy: OnFailure
      containers: [{name: m, image: m}]
`
	return &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "app", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/_helpers.tpl", Data: []byte(helpers)}, {Name: "templates/secret.yaml", Data: []byte(secret)},
			{Name: "templates/deploy.yaml", Data: []byte(deploy)}, {Name: "templates/job.yaml", Data: []byte(job)}}}
}

// TestResumedInstallRendersOnce: an install that paused for its
// post-install hook goes on with the objects it rendered before, as
// helm's single render: the Deployment's checksum of the Secret's template
// (which generated a value that lookup finds on a second render) and the
// Secret stay as the first call wrote them, so the Deployment is not
// changed in the middle of the install. The record keeps
// the chart's own templates.
func TestResumedInstallRendersOnce(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	ch := generatedSecretChart()
	state := func() (checksum string, password string) {
		t.Helper()
		d := &appsv1.Deployment{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "app"}, d); err != nil {
			t.Fatal(err)
		}
		s := &corev1.Secret{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "app"}, s); err != nil {
			t.Fatal(err)
		}
		return d.Spec.Template.Annotations["checksum/secrets"], string(s.Data["password"])
	}
	r, rel, err := hookStep(t, c, ch, 0, false, false)
	if err != nil || rel != nil || !r.paused() {
		t.Fatalf("first call: rel %v, err %v, paused %v; want a pause at the post-install Job", rel, err, r.paused())
	}
	sum, pw := state()
	job := &batchv1.Job{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "migrate"}, job); err != nil {
		t.Fatal(err)
	}
	setJob(t, c, batchv1.JobComplete, "CompletionsReached")
	r, rel, err = hookStep(t, c, ch, 1, true, false)
	if err != nil || rel == nil || r.paused() {
		t.Fatalf("resumed call: rel %v, err %v, paused %v; want the release", rel, err, r.paused())
	}
	if gotSum, gotPw := state(); gotSum != sum || gotPw != pw {
		t.Errorf("after the resumed install: checksum %s (was %s), password kept %v; want both unchanged", gotSum, sum, gotPw == pw)
	}
	last, err := r.cfg.Releases.Last("app")
	if err != nil {
		t.Fatal(err)
	}
	var secretTpl string
	for _, f := range last.Chart.Templates {
		if f.Name == "templates/secret.yaml" {
			secretTpl = string(f.Data)
		}
	}
	if !strings.Contains(secretTpl, `include "app.password"`) {
		t.Errorf("the record's chart has secret.yaml %q, want the chart's own template", secretTpl)
	}
}

// TestPinnedChartPaths: the documents of a revision go back to the
// templates of the chart or subchart (by name or alias) their path names,
// partials and NOTES.txt stay, and a path that names no chart of the tree
// (or a subchart used under two aliases) gives up the pinning.
func TestPinnedChartPaths(t *testing.T) {
	sub := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "postgres", Version: "1.0.0"},
		Templates: []*chart.File{{Name: "templates/sts.yaml", Data: []byte("x")}, {Name: "templates/_names.tpl", Data: []byte("y")}}}
	top := &chart.Chart{Metadata: &chart.Metadata{APIVersion: "v2", Name: "top", Version: "1.0.0",
		Dependencies: []*chart.Dependency{{Name: "postgres", Alias: "db"}}},
		Templates: []*chart.File{{Name: "templates/cm.yaml", Data: []byte("z")}, {Name: "templates/NOTES.txt", Data: []byte("n")}}}
	top.SetDependencies(sub)
	rel := &release.Release{Manifest: sourcePrefix + "top/templates/cm.yaml\nkind: ConfigMap\n" +
		sourcePrefix + "top/charts/db/templates/sts.yaml\nkind: StatefulSet\n" +
		sourcePrefix + "top/templates/cm.yaml\nkind: ConfigMap # second\n"}
	p, ok := pinnedChart(top, rel)
	if !ok {
		t.Fatal("not pinned")
	}
	names := func(c *chart.Chart) map[string]string {
		out := map[string]string{}
		for _, f := range c.Templates {
			out[f.Name] = string(f.Data)
		}
		return out
	}
	if got := names(p); got["templates/cm.yaml"] != `{{ "kind: ConfigMap" }}`+"\n---\n"+`{{ "kind: ConfigMap # second" }}` || got["templates/NOTES.txt"] != "n" {
		t.Errorf("top's templates = %q", got)
	}
	if got := names(p.Dependencies()[0]); got["templates/sts.yaml"] != `{{ "kind: StatefulSet" }}` || got["templates/_names.tpl"] != "y" {
		t.Errorf("the subchart's templates = %q", got)
	}
	if names(top)["templates/cm.yaml"] != "z" {
		t.Error("the chart itself was changed")
	}
	if _, ok := pinnedChart(top, &release.Release{Manifest: sourcePrefix + "top/charts/other/templates/a.yaml\nkind: A\n"}); ok {
		t.Error("a path of no subchart was pinned")
	}
}
