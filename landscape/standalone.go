package landscape

import (
	"github.com/lscli/lscli/fakecluster"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IsStandalone reports whether obj, of kind, is a stand-alone Execution or
// DeployItem: one that no Installation or Execution controls. lscli starts
// their jobs as it does the jobs of root installations (package
// engine/standalone).
func IsStandalone(kind string, obj metav1.Object) bool {
	return (kind == "Execution" || kind == "DeployItem") && fakecluster.ControllerOf(obj) == nil
}
