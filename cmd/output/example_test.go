package output_test

import (
	"fmt"
	"os"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
)

func ExampleTree() {
	root := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "demo", UID: "1"}}
	root.Status.InstallationPhase = lsv1alpha1.InstallationPhases.Failed
	root.Status.JobID, root.Status.JobIDFinished = "3b7c1f0e-8a2d-4c1b-9f3e-5d6a7b8c9d0e", "3b7c1f0e-8a2d-4c1b-9f3e-5d6a7b8c9d0e"
	root.Status.ExecutionReference = &lsv1alpha1.ObjectReference{Namespace: "example", Name: "demo"}

	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "demo", UID: "2"}}
	exec.Status.ExecutionPhase = lsv1alpha1.ExecutionPhases.Failed
	exec.Status.JobID, exec.Status.JobIDFinished = root.Status.JobID, root.Status.JobID
	exec.Status.LastError = &lsv1alpha1.Error{Message: "has failed or missing deploy items"}

	item := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{
		Namespace: "example", Name: "demo-chart-a1b2c", UID: "3",
		Labels: map[string]string{lsv1alpha1.ExecutionManagedByLabel: "demo"},
	}}
	item.Status.Phase = lsv1alpha1.DeployItemPhases.Failed
	item.Status.JobID = root.Status.JobID
	item.Status.LastError = &lsv1alpha1.Error{Message: "unable to apply manifest"}

	// Color off: cmd decides with iostreams.ColorEnabled.
	st := output.NewStyles(output.NewRenderer(os.Stdout, false))
	fmt.Print(output.Tree([]fakecluster.Object{item, exec, root}, st, output.TreeOptions{}))
	// Output:
	// Installation example/demo  Failed  job 3b7c1f0e
	// └── Execution example/demo  Failed  job 3b7c1f0e
	//     Last error: has failed or missing deploy items
	//     └── DeployItem example/demo-chart-a1b2c  Failed  job 3b7c1f0e (running)
	//         Last error: unable to apply manifest
}
