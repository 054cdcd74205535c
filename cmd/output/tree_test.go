package output

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/fakecluster"
)

func TestTreeGolden(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		st     Styles
		opts   TreeOptions
	}{
		{name: "plain", golden: "tree", st: plainStyles()},
		{name: "color", golden: "tree-color", st: colorStyles()},
		{name: "wide", golden: "tree-wide", st: plainStyles(), opts: TreeOptions{Wide: true}},
		{name: "wide color", golden: "tree-wide-color", st: colorStyles(), opts: TreeOptions{Wide: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tree(landscape(), tt.st, tt.opts)
			if !tt.st.Enabled() {
				noEscapes(t, got)
			}
			checkGolden(t, tt.golden, got)
		})
	}
}

// TestTreeTTY goes the way cmd does: stream TTY flag, color decision,
// renderer on streams.Out.
func TestTreeTTY(t *testing.T) {
	for _, isTTY := range []bool{true, false} {
		t.Run(fmt.Sprintf("tty=%v", isTTY), func(t *testing.T) {
			streams, _, out, _ := iostreams.Test()
			streams.SetStdoutTTY(isTTY)
			color, err := iostreams.ColorEnabled("auto", streams.IsStdoutTTY(), func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			st := NewStyles(NewRenderer(streams.Out, color))
			fmt.Fprint(streams.Out, Tree(landscape(), st, TreeOptions{}))
			golden := "tree"
			if isTTY {
				golden = "tree-color"
			}
			checkGolden(t, golden, out.String())
		})
	}
}

// TestTreeLines checks the lines each rule of Tree's contract produces.
func TestTreeLines(t *testing.T) {
	got := Tree(landscape(), plainStyles(), TreeOptions{})
	wantLines := []string{
		// Root, sorted first; short job ID.
		"Installation example/broken  Failed  job 9a8b7c6d",
		"Last error: execution example/broken is in phase Failed",
		// Multi-line last errors keep the tree's indentation.
		"    └── DeployItem example/broken-item-zz9x8  Failed  job 9a8b7c6d",
		"        Last error: unable to apply manifest:",
		"        connection refused",
		// Subinstallation linked by label only, running.
		"├── Installation example/demo-app-q9w8e  Progressing  job 3b7c1f0e (running)",
		// Deploy items owned by reference only and by label only.
		"    ├── DeployItem example/demo-chart-a1b2c  Succeeded  job 3b7c1f0e",
		"    └── DeployItem example/demo-config-d4e5f  Succeeded  job 3b7c1f0e",
		// Outdated, running and deleting; an object without phase or job.
		"Installation other/upgrade  Deleting  job 5e4d3c2b (running) (deleting)",
		"    ├── DeployItem other/upgrade-new-p5q6r  - (outdated)",
		"    └── DeployItem other/upgrade-old-m3n4b  Deleting  job 9a8b7c6d (running) (outdated) (deleting)",
		// Orphans at the end.
		"Installation example/dangling  Init",
		"Execution example/lost  Succeeded  job 0f1e2d3c",
		"DeployItem example/stray-k1l2m  Failed  job 0f1e2d3c",
	}
	for _, want := range wantLines {
		if !containsLine(got, want) {
			t.Errorf("tree has no line %q:\n%s", want, got)
		}
	}
	for _, notWant := range []string{"Target", "DataObject", "Context", "Secret", "ConfigMap"} {
		if strings.Contains(got, notWant) {
			t.Errorf("tree shows a %s:\n%s", notWant, got)
		}
	}
	// Roots: real roots by namespace and name, then orphans by kind.
	var roots []string
	for _, l := range strings.Split(got, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "├") &&
			!strings.HasPrefix(l, "└") && !strings.HasPrefix(l, "│") && !strings.HasPrefix(l, "Last error") {
			roots = append(roots, strings.Fields(l)[1])
		}
	}
	wantRoots := "example/broken example/demo other/upgrade example/dangling example/lost example/stray-k1l2m"
	if strings.Join(roots, " ") != wantRoots {
		t.Errorf("roots = %v, want %v", roots, wantRoots)
	}
}

func TestTreeWideLines(t *testing.T) {
	got := Tree(landscape(), plainStyles(), TreeOptions{Wide: true})
	for _, want := range []string{
		"    ├── DeployItem example/demo-chart-a1b2c  Succeeded  job " + job1 +
			"  type=landscaper.gardener.cloud/helm target=infra/other-cluster generation=3 observedGeneration=2",
		"│       └── DeployItem example/demo-db-x7k2p-db-8fj2k  Succeeded  job " + job1 +
			"  type=landscaper.gardener.cloud/mock target=my-cluster generation=1 observedGeneration=1",
		"Installation example/demo  Succeeded  job " + job1 + "  generation=1 observedGeneration=1",
	} {
		if !containsLine(got, want) {
			t.Errorf("wide tree has no line %q:\n%s", want, got)
		}
	}
}

func TestTreeEmpty(t *testing.T) {
	tests := []struct {
		name string
		objs []fakecluster.Object
	}{
		{name: "nil", objs: nil},
		{name: "only other kinds", objs: []fakecluster.Object{&lsv1alpha1.Target{ObjectMeta: meta("a", "t")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tree(tt.objs, Styles{}, TreeOptions{}); got != NoInstallations {
				t.Errorf("Tree = %q, want %q", got, NoInstallations)
			}
		})
	}
}

// TestTreeOwnershipCycle checks that objects owning each other are still
// shown, once each.
func TestTreeOwnershipCycle(t *testing.T) {
	a := inst("ns", "a", "", "", "")
	b := inst("ns", "b", "", "", "")
	a.OwnerReferences = []metav1.OwnerReference{ownerRef(b, "Installation")}
	b.OwnerReferences = []metav1.OwnerReference{ownerRef(a, "Installation")}
	self := inst("ns", "self", "", "", "")
	self.OwnerReferences = []metav1.OwnerReference{ownerRef(self, "Installation")}
	got := Tree([]fakecluster.Object{b, a, self}, Styles{}, TreeOptions{})
	want := "Installation ns/self  -\n\nInstallation ns/a  -\n└── Installation ns/b  -\n"
	if got != want {
		t.Errorf("Tree =\n%s\nwant\n%s", got, want)
	}
}

func TestTreeDoesNotChangeInput(t *testing.T) {
	objs := landscape()
	before := fmt.Sprint(objs)
	Tree(objs, colorStyles(), TreeOptions{Wide: true})
	if fmt.Sprint(objs) != before {
		t.Errorf("Tree changed its input")
	}
}

func containsLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}

// bigLandscape has 100 root installations with 99 subinstallations each
// (10,000 installations), every one with an Execution and 3 DeployItems.
func bigLandscape() []fakecluster.Object {
	var objs []fakecluster.Object
	addExec := func(i *lsv1alpha1.Installation) {
		e := execOf(i, lsv1alpha1.ExecutionPhases.Succeeded, job1, job1)
		objs = append(objs, e)
		for k := range 3 {
			objs = append(objs, itemOf(e, fmt.Sprintf("%s-item-%d", i.Name, k), lsv1alpha1.DeployItemPhases.Succeeded, job1, job1))
		}
	}
	for r := range 100 {
		root := inst(fmt.Sprintf("ns-%02d", r%10), fmt.Sprintf("root-%03d", r), lsv1alpha1.InstallationPhases.Succeeded, job1, job1)
		objs = append(objs, root)
		addExec(root)
		for s := range 99 {
			sub := subInst(root, fmt.Sprintf("root-%03d-sub-%02d", r, s), lsv1alpha1.InstallationPhases.Succeeded, job1, job1)
			objs = append(objs, sub)
			addExec(sub)
		}
	}
	return objs
}

func TestTreeBig(t *testing.T) {
	if testing.Short() {
		t.Skip("big landscape")
	}
	objs := bigLandscape()
	got := Tree(objs, colorStyles(), TreeOptions{})
	if n, want := strings.Count(got, "\n"), 50_000+99; n != want {
		t.Errorf("tree has %d lines, want %d", n, want)
	}
	// The roots are drawn on all cores: the trees come in the roots' order,
	// each as Tree draws it alone. bigLandscape holds 500 objects a root.
	type rooted struct{ key, tree string }
	var trees []rooted
	for r := 0; r < len(objs); r += 500 {
		root := objs[r]
		trees = append(trees, rooted{root.GetNamespace() + "/" + root.GetName(), Tree(objs[r:r+500], colorStyles(), TreeOptions{})})
	}
	slices.SortFunc(trees, func(a, b rooted) int { return strings.Compare(a.key, b.key) })
	var want strings.Builder
	for i, tr := range trees {
		if i > 0 {
			want.WriteString("\n")
		}
		want.WriteString(tr.tree)
	}
	if got != want.String() {
		t.Error("the tree of all roots is not the trees of each root, in order")
	}
}

func BenchmarkTree(b *testing.B) {
	objs := bigLandscape()
	for _, bc := range []struct {
		name string
		st   Styles
	}{{"plain", plainStyles()}, {"color", colorStyles()}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Tree(objs, bc.st, TreeOptions{})
			}
		})
	}
}

// With Explain, a node whose lastError has lscli's text shows it in a line
// after the last error, indented like it; other nodes and a tree without
// Explain are as they were.
func TestTreeExplain(t *testing.T) {
	root := inst("default", "root", lsv1alpha1.InstallationPhases.Failed, "job1", "job1")
	sub := subInst(root, "sub", lsv1alpha1.InstallationPhases.Failed, "job1", "job1")
	root.Status.LastError = lastError("Landscaper's words")
	sub.Status.LastError = lastError("Landscaper's words for sub")
	objs := []fakecluster.Object{root, sub}
	var asked []string
	opts := TreeOptions{Explain: func(kind string, key types.NamespacedName, jobID, message string) string {
		asked = append(asked, fmt.Sprintf("%s %s %s %s", kind, key, jobID, message))
		if key.Name == "sub" {
			return "installation default/sub: lscli's words"
		}
		return ""
	}}
	got := Tree(objs, plainStyles(), opts)
	want := "Installation default/root  Failed  job job1\n" +
		"Last error: Landscaper's words\n" +
		"└── Installation default/sub  Failed  job job1\n" +
		"    Last error: Landscaper's words for sub\n" +
		"    lscli: installation default/sub: lscli's words\n"
	if got != want {
		t.Fatalf("tree:\n%s\nwant:\n%s", got, want)
	}
	if w := []string{"Installation default/root job1 Landscaper's words", "Installation default/sub job1 Landscaper's words for sub"}; !slices.Equal(asked, w) {
		t.Errorf("Explain asked %q, want %q", asked, w)
	}
	if plain := Tree(objs, plainStyles(), TreeOptions{}); strings.Contains(plain, "lscli:") {
		t.Errorf("tree without Explain:\n%s", plain)
	}
}
