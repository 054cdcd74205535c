package simcluster

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
)

// TestCoreGenerationAgreesWithLandscapeServer: lscli's own API server
// (fakecluster, which holds Secrets, ConfigMaps and what a Target with
// selfConfig applies) and the simulated clusters give the same core/v1
// kinds a metadata.generation.
func TestCoreGenerationAgreesWithLandscapeServer(t *testing.T) {
	for gvk := range builtin().AllKnownTypes() {
		if gvk.Group != "" || gvk.Version != "v1" || isListKind(gvk) {
			continue
		}
		_, sim := generationRuleFor(gvk, nil)
		if own := fakecluster.HasGeneration(schema.GroupKind{Kind: gvk.Kind}); own != sim {
			t.Errorf("%s: generation in lscli's API server %v, in a simulated cluster %v", gvk.Kind, own, sim)
		}
	}
}
