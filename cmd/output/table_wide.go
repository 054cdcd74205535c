package output

import (
	"strconv"
	"strings"
	"unicode/utf8"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// addWideColumns adds the columns of `get -o wide` to t, a table of objs of
// one kind.
func addWideColumns(t *table, objs []fakecluster.Object) {
	var header []string
	switch kindOf(objs[0]) {
	case kindInstallation:
		header = []string{"GENERATION", "OBSERVED", "BLUEPRINT", "LASTERROR"}
	case kindExecution:
		header = []string{"GENERATION", "OBSERVED", "DEPLOYITEMS", "LASTERROR"}
	case kindDeployItem:
		header = []string{"TARGET", "GENERATION", "OBSERVED", "LASTERROR"}
	case kindTarget:
		header = []string{"SECRET"}
	case kindDataObject:
		header = []string{"SOURCE"}
	default:
		return
	}
	t.header = append(t.header, header...)
	for i, o := range objs {
		t.rows[i] = append(t.rows[i], wideCells(o)...)
	}
}

// wideCells are the cells addWideColumns adds for o.
func wideCells(o fakecluster.Object) []cell {
	switch o := o.(type) {
	case *lsv1alpha1.Installation:
		return append(generationCells(o), plain(orDash(blueprintOf(o))), lastErrorCell(o))
	case *lsv1alpha1.Execution:
		return append(generationCells(o), plain(strconv.Itoa(len(o.Spec.DeployItems))), lastErrorCell(o))
	case *lsv1alpha1.DeployItem:
		target := ""
		if o.Spec.Target != nil {
			target = o.Spec.Target.Name
		}
		return append([]cell{plain(orDash(target))}, append(generationCells(o), lastErrorCell(o))...)
	case *lsv1alpha1.Target:
		secret := ""
		if o.Spec.SecretRef != nil {
			secret = o.Spec.SecretRef.Name
		}
		return []cell{plain(orDash(secret))}
	case *lsv1alpha1.DataObject:
		return []cell{plain(orDash(o.GetLabels()[lsv1alpha1.DataObjectSourceLabel]))}
	}
	return nil
}

// generationCells are GENERATION and OBSERVED (status.observedGeneration).
func generationCells(o fakecluster.Object) []cell {
	s, _ := statusOf(o)
	return []cell{plain(strconv.FormatInt(o.GetGeneration(), 10)), plain(strconv.FormatInt(s.observedGeneration, 10))}
}

// blueprintOf says where an installation's blueprint is: "inline", or the
// reference's resource name.
func blueprintOf(inst *lsv1alpha1.Installation) string {
	switch bp := inst.Spec.Blueprint; {
	case bp.Inline != nil:
		return "inline"
	case bp.Reference != nil:
		return bp.Reference.ResourceName
	}
	return ""
}

// maxErrorWidth is how much of a last error the wide table shows.
const maxErrorWidth = 60

// lastErrorCell is the headline of the last error's message (see
// errorHeadline), cut at maxErrorWidth characters.
func lastErrorCell(o fakecluster.Object) cell {
	s, _ := statusOf(o)
	if s.lastError == nil {
		return plain("-")
	}
	msg := errorHeadline(s.lastError.Message)
	if utf8.RuneCountInString(msg) > maxErrorWidth {
		msg = string([]rune(msg)[:maxErrorWidth-1]) + "…"
	}
	return plain(orDash(msg))
}

// errorHeadline is the line of a lastError message that says what went
// wrong: its first line; or, for a message that starts with a newline (a
// failed helm release: the lines helm logged during the attempt, then
// Landscaper's error "Op: ... - Reason: ... - Message: ..."), the message of
// its last such error line.
func errorHeadline(msg string) string {
	rest, logged := strings.CutPrefix(msg, "\n")
	if !logged {
		first, _, _ := strings.Cut(msg, "\n")
		return first
	}
	lines := strings.Split(rest, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.HasPrefix(lines[i], "Op: ") {
			continue
		}
		if _, m, ok := strings.Cut(lines[i], " - Message: "); ok {
			return m
		}
		return lines[i]
	}
	return lines[0]
}
