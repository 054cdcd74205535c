package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// invalidImages are images kube-apiserver stores and the kubelet cannot
// parse (distribution/reference's ParseNormalizedNamed), with what the
// library says: a digest-pinned reference joined with a tag by a chart
// (repo:sha256:HEX, repo:tag@sha256:HEX:tag), a short digest, upper case.
var invalidImages = map[string]string{
	"registry.example/server:sha256:" + hex64:              "invalid reference format",
	"registry.example/server:1.0@sha256:" + hex64 + ":1.0": "invalid reference format",
	"registry.example/server@sha256:abc":                   "invalid reference format",
	"Server:1.0":                                           "invalid reference format: repository name (library/Server) must be lowercase",
}

// validImages are images the kubelet parses: with or without registry
// (and port), tag, digest, or both.
var validImages = []string{
	"busybox", "busybox:1.36", "registry.example:5000/team/server:1.0", "registry.example/server@sha256:" + hex64,
	"registry.example/server:1.0@sha256:" + hex64, "eu.gcr.io/team/server:v1.2.3-rc.1",
}

// kubeletImageMessage is the kubelet's waiting message for image
// (pkg/kubelet/images image_manager.go, EnsureImageExists).
func kubeletImageMessage(image, err string) string {
	return `Failed to apply default image tag "` + image + `": couldn't parse image reference "` + image + `": ` + err
}

// TestInvalidImageNameNeverReady: a workload whose container or init
// container has an image the kubelet cannot parse is stored (the API
// server does not parse it) and never ready: its pods wait with reason
// InvalidImageName. Fixing the image makes it ready.
func TestInvalidImageNameNeverReady(t *testing.T) {
	for image := range invalidImages {
		for _, k := range workloadKinds {
			for _, spec := range []string{
				"      containers: [{name: c, image: \"" + image + "\"}]\n",
				"      initContainers: [{name: i, image: \"" + image + "\"}]\n      containers: [{name: c, image: busybox}]\n",
			} {
				t.Run(k.kind+"/"+image, func(t *testing.T) {
					f := newFixture(t)
					f.create(workload(k.kind, spec))
					u := f.get(k.apiVersion, k.kind, "default", "w")
					if ready(t, u) {
						t.Fatalf("ready with image %q; status: %v", image, u.Object["status"])
					}
					f.clock.Step(time.Hour)
					f.create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unrelated, namespace: default}\n")
					if u := f.get(k.apiVersion, k.kind, "default", "w"); ready(t, u) {
						t.Fatalf("ready an hour later; status: %v", u.Object["status"])
					}
					fixed := workload(k.kind, strings.ReplaceAll(spec, image, "busybox:1.36"))
					if k.kind == "Job" { // its template is immutable
						if err := f.c.Delete(context.Background(), obj(t, fixed)); err != nil {
							t.Fatal(err)
						}
						f.create(fixed)
					} else {
						f.update(fixed)
					}
					if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
						t.Errorf("not ready once the image is fixed; status: %v", u.Object["status"])
					}
				})
			}
		}
	}
}

// TestValidImagesReady: every image the kubelet parses is ready at once,
// as before.
func TestValidImagesReady(t *testing.T) {
	for _, image := range validImages {
		for _, k := range workloadKinds {
			t.Run(k.kind+"/"+image, func(t *testing.T) {
				f := newFixture(t)
				f.create(workload(k.kind, "      initContainers: [{name: i, image: \""+image+"\"}]\n      containers: [{name: c, image: \""+image+"\"}]\n"))
				if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
					t.Errorf("not ready; status: %v", u.Object["status"])
				}
			})
		}
	}
}

// TestPodStatusInvalidImageName: what the kubelet writes: the Pod is
// Pending and scheduled, the container waits with InvalidImageName and the
// kubelet's message; behind an init container with such an image the
// containers wait in PodInitializing. A volume that cannot be mounted comes
// first (ContainerCreating), a container's image before its env.
func TestPodStatusInvalidImageName(t *testing.T) {
	bad := "registry.example/server:sha256:" + hex64
	msg := kubeletImageMessage(bad, "invalid reference format")
	notReady := func(names string) []string {
		return []string{"PodScheduled=True/", "Initialized=True/",
			"ContainersReady=False/ContainersNotReady: containers with unready status: [" + names + "]",
			"Ready=False/ContainersNotReady: containers with unready status: [" + names + "]"}
	}
	for _, tc := range []struct {
		name, spec, containers string
		conds                  []string
	}{
		{"container", "      containers: [{name: a, image: busybox}, {name: c, image: \"" + bad + "\"}]\n",
			"a: c:InvalidImageName:" + msg, notReady("c")},
		{"init container", "      initContainers: [{name: i, image: \"" + bad + "\"}]\n      containers: [{name: c, image: busybox}]\n",
			"i:InvalidImageName:" + msg + " c:PodInitializing", []string{"PodScheduled=True/",
				"Initialized=False/ContainersNotInitialized: containers with incomplete status: [i]",
				"ContainersReady=False/ContainersNotReady: containers with unready status: [c]",
				"Ready=False/ContainersNotReady: containers with unready status: [c]"}},
		{"image before env", "      containers: [{name: c, image: \"" + bad + "\", envFrom: [{secretRef: {name: creds}}]}]\n",
			"c:InvalidImageName:" + msg, notReady("c")},
		{"mount before image", "      containers: [{name: c, image: \"" + bad + "\"}]\n      volumes: [{name: s, secret: {secretName: creds}}]\n",
			"c:ContainerCreating", notReady("c")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(workload("Pod", tc.spec))
			p := f.get("v1", "Pod", "default", "w")
			if phase, _, _ := unstructured.NestedString(p.Object, "status", "phase"); phase != "Pending" {
				t.Errorf("phase = %q, want Pending", phase)
			}
			checkConditions(t, "", p, tc.conds...)
			if got := podStates(p); got != tc.containers {
				t.Errorf("containers\n%q\nwant\n%q", got, tc.containers)
			}
		})
	}
	t.Run("image once the volume mounts", func(t *testing.T) {
		f := newFixture(t)
		f.create(workload("Pod", "      containers: [{name: c, image: \""+bad+"\"}]\n      volumes: [{name: s, secret: {secretName: creds}}]\n"))
		f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\n")
		if got := podStates(f.get("v1", "Pod", "default", "w")); got != "c:InvalidImageName:"+msg {
			t.Errorf("containers once the Secret exists %q", got)
		}
	})
}

// TestDeploymentInvalidImageName: the Deployment's pods are created and
// never ready (Progressing ReplicaSetUpdated); once its progress deadline
// passed, kube-controller-manager writes ProgressDeadlineExceeded
// (kstatus Failed), as for any Deployment whose pods do not start.
func TestDeploymentInvalidImageName(t *testing.T) {
	f := newFixture(t)
	f.create(strings.Replace(workload("Deployment", "      containers: [{name: c, image: \"Server:1.0\"}]\n"),
		"replicas: 2", "replicas: 2\n  progressDeadlineSeconds: 60", 1))
	d := f.get("apps/v1", "Deployment", "default", "w")
	rs := "w-" + podTemplateHashOf(t, d)
	checkConditions(t, "at once", d,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`Progressing=True/ReplicaSetUpdated: ReplicaSet "`+rs+`" is progressing.`)
	if got := [4]int64{statusInt(d, "replicas"), statusInt(d, "updatedReplicas"), statusInt(d, "readyReplicas"), statusInt(d, "unavailableReplicas")}; got != [4]int64{2, 2, 0, 2} {
		t.Errorf("replicas, updated, ready, unavailable = %v, want [2 2 0 2]", got)
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(61*time.Second)) {
		t.Errorf("NextChange = %v, %v; want %v", next, ok, epoch.Add(61*time.Second))
	}
	g := f.restored() // the deadline survives a save and restore
	g.c = g.client()
	g.clock.Step(61 * time.Second)
	d = g.get("apps/v1", "Deployment", "default", "w")
	checkConditions(t, "after the deadline", d,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`Progressing=False/ProgressDeadlineExceeded: ReplicaSet "`+rs+`" has timed out progressing.`)
	if s := kstatusOf(t, d); s != status.FailedStatus {
		t.Errorf("kstatus after the deadline = %s, want Failed", s)
	}
}

// TestWaitsForInvalidImage: WaitsFor names the container, its image and
// the kubelet's reason and message.
func TestWaitsForInvalidImage(t *testing.T) {
	f := newFixture(t)
	bad := "registry.example/server:1.0@sha256:" + hex64 + ":1.0"
	f.create(workload("StatefulSet", "      containers: [{name: c, image: \""+bad+"\"}]\n"))
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}
	got, err := f.clusters.WaitsFor(context.Background(), f.target, gvk, "default", "w")
	want := Wait{Container: "c", Image: bad, Reason: ReasonInvalidImageName, Message: kubeletImageMessage(bad, "invalid reference format")}
	if err != nil || got != want {
		t.Errorf("WaitsFor = %+v, %v; want %+v", got, err, want)
	}
}
