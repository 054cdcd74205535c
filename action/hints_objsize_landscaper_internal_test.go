package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestLandscaperObjectSizeHint: an Installation or Execution whose write of
// an object was refused as too large for etcd is told what holds the bytes
// and how to get below the limit; other errors get no hint.
func TestLandscaperObjectSizeHint(t *testing.T) {
	tooLarge := &lsv1alpha1.Error{Message: "write operation W000036 failed with etcdserver: request is too large"}
	if got := landscaperObjectSizeHint("Execution", "demo", "big", tooLarge); !strings.Contains(got,
		"Execution demo/big: Landscaper's API server refused to store a DeployItem as too large") ||
		!strings.Contains(got, "split the manifests over several deploy items") {
		t.Errorf("Execution hint = %q", got)
	}
	if got := landscaperObjectSizeHint("Installation", "demo", "platform", tooLarge); !strings.Contains(got,
		"Installation demo/platform: Landscaper's API server refused to store an object it writes as too large") {
		t.Errorf("Installation hint = %q", got)
	}
	if got := landscaperObjectSizeHint("Execution", "demo", "big", &lsv1alpha1.Error{Message: "has failed or missing deploy items"}); got != "" {
		t.Errorf("hint for another error = %q", got)
	}
	if got := landscaperObjectSizeHint("Execution", "demo", "big", nil); got != "" {
		t.Errorf("hint without an error = %q", got)
	}
}
