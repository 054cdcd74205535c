package dataflow

import (
	"context"
	"fmt"
	"io/fs"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

// warnIgnoredDocuments warns (reconcile.Warn) of the YAML documents of
// bp's files that Landscaper decodes as one object and whose further
// documents it ignores without a word: blueprint.yaml (NewFromFs and the
// inline resolution in Landscaper's pkg/utils/blueprints and
// pkg/landscaper/blueprints) and the file of each subinstallation without
// an inline template (GetSubinstallations in
// pkg/utils/blueprints/blueprint.go). lscli keeps Landscaper's behaviour:
// the first document is used. Files of template executions are templates,
// not decoded as YAML, so nothing of them is dropped.
func warnIgnoredDocuments(ctx context.Context, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint) {
	if bp == nil || bp.FS == nil || reconcile.WarningsOf(ctx) == nil {
		return
	}
	where := fmt.Sprintf("installation %s: blueprint %s", instName(inst), bp.Source)
	if bp.Source == "" {
		where = fmt.Sprintf("installation %s: blueprint", instName(inst))
	}
	if data, err := fs.ReadFile(bp.FS, lsv1alpha1.BlueprintFileName); err == nil {
		if n := blueprint.IgnoredDocuments(data); n > 0 {
			reconcile.Warn(ctx, fmt.Sprintf("%s: %s holds %s after the first, which Landscaper ignores: it reads one Blueprint from the file; remove %s",
				where, lsv1alpha1.BlueprintFileName, moreDocuments(n), them(n)))
		}
	}
	for i, st := range bp.Info.Subinstallations {
		if st.InstallationTemplate != nil || st.File == "" {
			continue // an inline template wins over a file, as in Landscaper
		}
		data, err := fs.ReadFile(bp.FS, blueprint.FilePath(st.File))
		if err != nil {
			continue // RenderSubinstallations says so
		}
		if n := blueprint.IgnoredDocuments(data); n > 0 {
			reconcile.Warn(ctx, fmt.Sprintf("%s: subinstallations[%d]: file %s holds %s after the first, which Landscaper ignores: it reads one InstallationTemplate per file; "+
				"put one subinstallation in each file and list each in the blueprint's subinstallations", where, i, st.File, moreDocuments(n)))
		}
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
