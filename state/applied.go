package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/fastjson"
)

// appliedSection names the optional section of the state file that holds
// the applied configurations (Snapshot.Applied), one a line, after the
// objects and the clusters section. Save writes it only when there are
// any, so a state saved before lscli kept them loads as it was, and an
// older lscli, which does not know the section, reads the file as a JSON
// document and leaves it out.
const appliedSection = "applied"

// AppliedConfig is the configuration the last `lscli reconcile` applied to
// one object from a file: what kubectl apply keeps in the object's
// annotation kubectl.kubernetes.io/last-applied-configuration, kept here
// instead so that the object stays as it was. Package state does not look
// inside Config: package landscape writes and reads it.
type AppliedConfig struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// UID is the uid of the object the configuration was applied to.
	UID types.UID `json:"uid"`
	// Config is the applied configuration, a JSON object.
	Config json.RawMessage `json:"config"`
}

// describe names the object of a in errors as "Kind namespace/name".
func (a *AppliedConfig) describe() string {
	if a.Namespace == "" {
		return a.Kind + " " + a.Name
	}
	return a.Kind + " " + a.Namespace + "/" + a.Name
}

// decodeApplied decodes one element of the applied section.
func decodeApplied(data []byte, into *AppliedConfig) error {
	if err := fastjson.Unmarshal(data, into); err != nil {
		return fmt.Errorf("applied configuration: %w", err)
	}
	return checkApplied(into)
}

// checkApplied refuses an applied configuration that names no object, or
// whose configuration is not a JSON object (a file edited by hand).
func checkApplied(a *AppliedConfig) error {
	if a.Kind == "" || a.Name == "" || a.UID == "" {
		return errors.New("applied configuration: kind, name and uid are required")
	}
	if c := bytes.TrimSpace(a.Config); len(c) == 0 || c[0] != '{' {
		return fmt.Errorf("applied configuration of %s: config is not a JSON object", a.describe())
	}
	return nil
}

// checkAppliedOnce refuses a second applied configuration of one object (a
// file edited by hand): which of the two the next apply should take is
// not for lscli to guess.
func checkAppliedOnce(applied []AppliedConfig) error {
	seen := make(map[[3]string]bool, len(applied))
	for i := range applied {
		key := [3]string{applied[i].Kind, applied[i].Namespace, applied[i].Name}
		if seen[key] {
			return fmt.Errorf("%s: applied configuration of %s twice", appliedSection, applied[i].describe())
		}
		seen[key] = true
	}
	return nil
}
