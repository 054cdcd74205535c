package output

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
)

// shortJobID is how many characters of a job ID the default tree shows.
const shortJobID = 8

// label is the text of one tree node: the headline and, when the object has
// a last error, a second line with it (and one with lscli's text of it, see
// TreeOptions.Explain); a deploy item whose job a timeout
// ended shows the first error of the job as well, which says why.
func (d *drawer) label(n *node, rootJobID string) string {
	st := d.st
	s, _ := statusOf(n.obj)
	var b strings.Builder
	b.WriteString(n.kind + " " + qualifiedName(n.obj) + "  " + st.Phase(s.phase))
	if s.jobID != "" {
		id := s.jobID
		if !d.opts.Wide && len(id) > shortJobID {
			id = id[:shortJobID]
		}
		b.WriteString("  " + st.Faint("job "+id))
	}
	if s.running() {
		b.WriteString(" " + st.Yellow("(running)"))
	}
	if s.jobID != rootJobID {
		b.WriteString(" " + st.Yellow("(outdated)"))
	}
	if n.obj.GetDeletionTimestamp() != nil {
		b.WriteString(" " + st.Red("(deleting)"))
	}
	if d.opts.Wide {
		b.WriteString(d.wide(n, s))
	}
	if s.lastError != nil {
		b.WriteString("\n" + st.Red("Last error:") + " " + s.lastError.Message)
		if d.opts.Explain != nil {
			key := types.NamespacedName{Namespace: n.namespace, Name: n.name}
			if text := d.opts.Explain(n.kind, key, s.jobID, s.lastError.Message); text != "" {
				b.WriteString("\n" + st.Red("lscli:") + " " + text)
			}
		}
	}
	if e := s.maskedCause(); e != nil {
		b.WriteString("\n" + st.Red("First error:") + " " + e.Message)
	}
	return b.String()
}

// wide is the extra text of a node in wide mode.
func (d *drawer) wide(n *node, s status) string {
	var fields []string
	if di, ok := n.obj.(*lsv1alpha1.DeployItem); ok {
		fields = append(fields, "type="+string(di.Spec.Type))
		if t := di.Spec.Target; t != nil {
			name := t.Name
			if t.Namespace != "" && t.Namespace != di.Namespace {
				name = t.Namespace + "/" + t.Name
			}
			fields = append(fields, "target="+name)
		}
	}
	fields = append(fields, fmt.Sprintf("generation=%d observedGeneration=%d", n.obj.GetGeneration(), s.observedGeneration))
	return "  " + d.st.Faint(strings.Join(fields, " "))
}
