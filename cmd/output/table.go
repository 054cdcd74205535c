package output

import (
	"strconv"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/fakecluster"
)

// NoObjects is what Table prints for an empty list.
const NoObjects = "No objects.\n"

// Table shows objs as kubectl-like aligned columns for `lscli get`: one
// table per kind, in the order of List, each sorted by namespace and name.
// When objs hold more than one kind, each table is headed by the kind's
// plural and a colon ("Installations:"), and tables are separated by a blank
// line. Columns:
//
//	Installation, Execution  NAMESPACE NAME PHASE JOBID JOBIDFINISHED
//	DeployItem               NAMESPACE NAME TYPE PHASE JOBID JOBIDFINISHED
//	Target                   NAMESPACE NAME TYPE
//	DataObject               NAMESPACE NAME CONTEXT KEY
//	Secret                   NAMESPACE NAME TYPE DATA
//	ConfigMap                NAMESPACE NAME DATA
//	Context and other kinds  NAMESPACE NAME
//
// Empty values show as "-"; phases are colored as in Styles.Phase. Table
// returns NoObjects when objs is empty. It is a pure function.
//
// With opts.Wide (`lscli get -o wide`) more columns follow, as kubectl's
// wide output has:
//
//	Installation  GENERATION OBSERVED BLUEPRINT LASTERROR
//	Execution     GENERATION OBSERVED DEPLOYITEMS LASTERROR
//	DeployItem    TARGET GENERATION OBSERVED LASTERROR
//	Target        SECRET
//	DataObject    SOURCE
//
// LASTERROR is the first line of status.lastError's message, cut at 60
// characters.
//
// With opts.SortBy, the rows of each kind are ordered by the value at that
// path (see sortByField); a path whose values cannot be ordered is an error.
func Table(objs []fakecluster.Object, st Styles, opts TableOptions) (string, error) {
	if len(objs) == 0 {
		return NoObjects, nil
	}
	var groups [][]fakecluster.Object
	prevKind := ""
	for _, o := range sortObjects(objs) {
		if k := kindOf(o); len(groups) == 0 || k != prevKind {
			groups = append(groups, nil)
			prevKind = k
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], o)
	}
	var b strings.Builder
	for i, g := range groups {
		g, err := sortByField(g, opts.SortBy)
		if err != nil {
			return "", err
		}
		if len(groups) > 1 {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.Bold(kindOf(g[0])+"s:") + "\n")
		}
		t := kindTable(g)
		if opts.Wide {
			addWideColumns(t, g)
		}
		addLabels(t, labelsOf(g), opts)
		t.noHeader = opts.NoHeaders
		b.WriteString(t.render(st))
	}
	return b.String(), nil
}

// TableOptions change what Table shows. The zero value is the default view.
type TableOptions struct {
	// Wide adds columns (see Table). Defaults to false.
	Wide bool
	// NoHeaders leaves out the line of column names (kubectl's
	// --no-headers); the columns are aligned on the rows alone.
	NoHeaders bool
	// ShowLabels adds a last column LABELS: the object's labels as
	// key=value, sorted by key and separated by commas, or <none>
	// (kubectl's --show-labels).
	ShowLabels bool
	// LabelColumns adds a column per label key, before LABELS, headed by
	// the key's last part after "/" in capitals and showing the object's
	// value of that label, or "-" (kubectl's -L).
	LabelColumns []string
	// SortBy orders the rows of each kind by the value at this JSONPath
	// (kubectl's --sort-by); empty keeps List's order.
	SortBy string
}

// kindTable builds the table of objects of one kind.
func kindTable(objs []fakecluster.Object) *table {
	t := &table{header: []string{"NAMESPACE", "NAME"}}
	switch kindOf(objs[0]) {
	case kindInstallation, kindExecution:
		t.header = append(t.header, "PHASE", "JOBID", "JOBIDFINISHED")
	case kindDeployItem:
		t.header = append(t.header, "TYPE", "PHASE", "JOBID", "JOBIDFINISHED")
	case kindTarget, kindSecret:
		t.header = append(t.header, "TYPE")
	case kindDataObject:
		t.header = append(t.header, "CONTEXT", "KEY")
	}
	switch kindOf(objs[0]) {
	case kindSecret, kindConfigMap:
		t.header = append(t.header, "DATA")
	}
	for _, o := range objs {
		row := []cell{plain(orDash(o.GetNamespace())), plain(o.GetName())}
		t.rows = append(t.rows, append(row, kindCells(o)...))
	}
	return t
}

// kindCells are the cells after NAMESPACE and NAME.
func kindCells(o fakecluster.Object) []cell {
	switch o := o.(type) {
	case *lsv1alpha1.Installation, *lsv1alpha1.Execution:
		return statusCells(o)
	case *lsv1alpha1.DeployItem:
		return append([]cell{plain(orDash(string(o.Spec.Type)))}, statusCells(o)...)
	case *lsv1alpha1.Target:
		return []cell{plain(orDash(string(o.Spec.Type)))}
	case *lsv1alpha1.DataObject:
		l := o.GetLabels()
		return []cell{plain(orDash(l[lsv1alpha1.DataObjectContextLabel])), plain(orDash(l[lsv1alpha1.DataObjectKeyLabel]))}
	case *corev1.Secret:
		return []cell{plain(orDash(string(o.Type))), plain(strconv.Itoa(len(o.Data) + len(o.StringData)))}
	case *corev1.ConfigMap:
		return []cell{plain(strconv.Itoa(len(o.Data) + len(o.BinaryData)))}
	}
	return nil
}

// statusCells are PHASE, JOBID and JOBIDFINISHED.
func statusCells(o fakecluster.Object) []cell {
	s, _ := statusOf(o)
	return []cell{{text: orDash(s.phase), style: Styles.Phase}, plain(orDash(s.jobID)), plain(orDash(s.jobIDFinished))}
}

// labelsOf returns the labels of each object, in order.
func labelsOf[O interface{ GetLabels() map[string]string }](objs []O) []map[string]string {
	out := make([]map[string]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetLabels()
	}
	return out
}

// addLabels adds the label columns opts asks for to t, whose rows have the
// labels objLabels (labelsOf): a column per -L key, then LABELS
// (--show-labels).
func addLabels(t *table, objLabels []map[string]string, opts TableOptions) {
	for _, key := range opts.LabelColumns {
		t.header = append(t.header, strings.ToUpper(key[strings.LastIndex(key, "/")+1:]))
		for i, l := range objLabels {
			t.rows[i] = append(t.rows[i], plain(orDash(l[key])))
		}
	}
	if opts.ShowLabels {
		t.header = append(t.header, "LABELS")
		for i, l := range objLabels {
			t.rows[i] = append(t.rows[i], plain(labels.FormatLabels(l)))
		}
	}
}
