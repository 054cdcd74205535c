package landscape

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/lscli/lscli/fakecluster"
)

// applyDefaults sets defaults as the API server and Landscaper do: the
// scheme's defaulting functions (Landscaper's set spec.context of
// Installations, Executions and DeployItems to "default"), and for Secrets
// what the API server does on every write.
func (ld *load) applyDefaults(obj fakecluster.Object) {
	ld.scheme.Default(obj)
	if s, ok := obj.(*corev1.Secret); ok {
		defaultSecret(s)
	}
}

// defaultSecret merges stringData into data, where readers of the Secret
// (imports with secretRef, target secretRefs) look, and sets the type to
// Opaque when it is empty, as the API server does.
func defaultSecret(s *corev1.Secret) {
	if s.Type == "" {
		s.Type = corev1.SecretTypeOpaque
	}
	if len(s.StringData) == 0 {
		return
	}
	if s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}
