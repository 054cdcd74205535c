package dataflow

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

// warnIgnoredDocuments warns (reconcile.WarnAbout inst, so that the
// installations that share a blueprint get one warning) of the YAML documents of
// bp's files that Landscaper decodes as one object and whose further
// documents it ignores without a word: blueprint.yaml (NewFromFs and the
// inline resolution in Landscaper's pkg/utils/blueprints and
// pkg/landscaper/blueprints) and the file of each subinstallation without
// an inline template (GetSubinstallations in
// pkg/utils/blueprints/blueprint.go). lscli keeps Landscaper's behaviour:
// the first document is used. Files of template executions are templates,
// not decoded as YAML, so nothing of them is dropped.
func warnIgnoredDocuments(ctx context.Context, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint) {
	if bp == nil || len(bp.Ignored) == 0 || reconcile.WarningsOf(ctx) == nil {
		return
	}
	where := "blueprint " + bp.Source
	if bp.Source == "" {
		where = "blueprint"
	}
	for _, f := range bp.Ignored {
		if f.Subinstallation < 0 {
			reconcile.WarnAbout(ctx, "installation", instName(inst), fmt.Sprintf("%s: %s holds %s after the first, which Landscaper ignores: it reads one Blueprint from the file; remove %s",
				where, f.File, moreDocuments(f.Documents), them(f.Documents)))
			continue
		}
		reconcile.WarnAbout(ctx, "installation", instName(inst), fmt.Sprintf("%s: subinstallations[%d]: file %s holds %s after the first, which Landscaper ignores: it reads one InstallationTemplate per file; "+
			"put one subinstallation in each file and list each in the blueprint's subinstallations", where, f.Subinstallation, f.File, moreDocuments(f.Documents)))
	}
}

// moreDocuments says n further YAML documents.
func moreDocuments(n int) string {
	if n == 1 {
		return "1 more YAML document"
	}
	return fmt.Sprintf("%d more YAML documents", n)
}

// them is the pronoun of n documents.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
