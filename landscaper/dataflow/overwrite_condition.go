package dataflow

import (
	"context"
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/components"
)

// OverwriteCondition is Landscaper's ComponentReferenceOverwrite condition
// of an installation.
type OverwriteCondition struct {
	Status  lsv1alpha1.ConditionStatus
	Reason  string
	Message string
}

// ComponentOverwrite returns the ComponentReferenceOverwrite condition
// Landscaper's controller sets on inst when it reads inst's Context
// (ApplyComponentOverwrite in pkg/landscaper/installations/context.go, at
// every Init and Completing), or nil where it sets none: the Context names
// no ComponentVersionOverwrites, or inst has no component descriptor. The
// reference is taken with the Context's repository context where it has
// none; an overwrite whose source matches it makes the condition True with
// the differences (Landscaper's ReferenceDiff), else it is False. Call it
// after CheckContext has passed.
func ComponentOverwrite(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (*OverwriteCondition, error) {
	lsCtx, err := readContext(ctx, r, inst, r.GetUnsafe)
	if err != nil {
		return nil, err
	}
	ow, err := overwrites(ctx, inst, lsCtx, r.GetUnsafe)
	if err != nil || lsCtx.ComponentVersionOverwritesReference == "" {
		return nil, err
	}
	old, ok := componentRef(inst.Spec.ComponentDescriptor)
	if !ok {
		return nil, nil
	}
	if old.Repo == nil {
		old.Repo = lsCtx.RepositoryContext
	}
	replaced, matched := ow.Apply(old)
	if !matched {
		return &OverwriteCondition{Status: lsv1alpha1.ConditionFalse, Reason: "No overwrite defined",
			Message: "component reference has not been overwritten"}, nil
	}
	return &OverwriteCondition{Status: lsv1alpha1.ConditionTrue, Reason: "FoundOverwrite", Message: referenceDiff(old, replaced)}, nil
}

// componentRef is the component reference of a component descriptor
// definition, as Landscaper's GetReferenceFromComponentDescriptorDefinition
// takes it: an inline descriptor's effective repository context, name and
// version, else the reference. ok is false for neither.
func componentRef(def *lsv1alpha1.ComponentDescriptorDefinition) (components.Ref, bool) {
	switch {
	case def == nil:
		return components.Ref{}, false
	case def.Inline != nil:
		return components.Ref{Repo: def.Inline.GetEffectiveRepositoryContext(), Name: def.Inline.GetName(),
			Version: def.Inline.GetVersion()}, true
	case def.Reference != nil:
		return components.Ref{Repo: def.Reference.RepositoryContext, Name: def.Reference.ComponentName,
			Version: def.Reference.Version}, true
	}
	return components.Ref{}, false
}

// referenceDiff is the text of Landscaper's ComponentDescriptorReferenceDiff
// (pkg/components/model/componentoverwrites): a line for the repository
// context, the component name and the version each, saying what was
// overwritten by what.
func referenceDiff(old, replaced components.Ref) string {
	oldRepo, newRepo := components.RepoText(old.Repo), components.RepoText(replaced.Repo)
	repo, name, version := oldRepo != newRepo, old.Name != replaced.Name, old.Version != replaced.Version
	if !repo && !name && !version {
		return "Component reference has not been overwritten."
	}
	line := func(aspect string, overwritten bool, diff string) string {
		if !overwritten {
			return aspect + " has not been overwritten"
		}
		return diff
	}
	return fmt.Sprintf("Component reference has been overwritten:\n%s\n%s\n%s",
		line("RepositoryContext", repo, repositoryContextDiff(old.Repo, replaced.Repo, oldRepo, newRepo)),
		line("ComponentName", name, old.Name+" -> "+replaced.Name),
		line("Version", version, old.Version+" -> "+replaced.Version))
}

// repositoryContextDiff is Landscaper's text for a repository context that
// was overwritten: base URLs and name mappings of two OCI registries, else
// their JSON.
func repositoryContextDiff(old, replaced *cdv2.UnstructuredTypedObject, oldRaw, newRaw string) string {
	if old == nil {
		return "-> " + newRaw
	}
	if replaced != nil && old.GetType() == cdv2.OCIRegistryType && replaced.GetType() == cdv2.OCIRegistryType {
		var o, n cdv2.OCIRegistryRepository
		if json.Unmarshal([]byte(oldRaw), &o) == nil && json.Unmarshal([]byte(newRaw), &n) == nil {
			return fmt.Sprintf("%s (%s) -> %s (%s)", o.BaseURL, o.ComponentNameMapping, n.BaseURL, n.ComponentNameMapping)
		}
	}
	return oldRaw + " -> " + newRaw
}
