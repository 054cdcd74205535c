package fakecluster

import (
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
)

// TestQuickChecksAgreeWithApimachinery checks that the quick checks never
// accept what apimachinery's validators refuse (they may refuse what is
// valid: validateMeta then asks apimachinery, which finds nothing).
func TestQuickChecksAgreeWithApimachinery(t *testing.T) {
	strs := []string{"", "a", "A", "0", "-", ".", "_", "a-b", "a--b", "a.b", "a..b", "a.-b", "a-.b", "-a", "a-", ".a", "a.",
		"a_b", "_a", "a_", "Ab", "aB", "a/b", "a/B", "/a", "a/", "a//b", "a/b/c", "example.com/x", "Example.com/x", "a.b-c/d_e.f",
		"data.landscaper.gardener.cloud/key", "app/config", "#x", "a b", "ä", strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 253), strings.Repeat("a", 254), strings.Repeat("a.", 126) + "a", strings.Repeat("a", 253) + "/b",
		"4a2ed75c-31fb-4cfa-b060-4bd6372f7851", "Inst.root", "step-0-6sr52"}
	for _, s := range strs {
		if isDNSSubdomain(s) && len(apivalidation.NameIsDNSSubdomain(s, false)) > 0 {
			t.Errorf("isDNSSubdomain(%q) is true, apimachinery refuses it", s)
		}
		if !isDNSSubdomain(s) && len(apivalidation.NameIsDNSSubdomain(s, false)) == 0 {
			t.Errorf("isDNSSubdomain(%q) is false, apimachinery accepts it", s)
		}
		if isQualifiedName(s) != (len(validation.IsQualifiedName(s)) == 0) {
			t.Errorf("isQualifiedName(%q) = %v, apimachinery: %v", s, isQualifiedName(s), validation.IsQualifiedName(s))
		}
		if isLabelValue(s) != (len(validation.IsValidLabelValue(s)) == 0) {
			t.Errorf("isLabelValue(%q) = %v, apimachinery: %v", s, isLabelValue(s), validation.IsValidLabelValue(s))
		}
	}
}
