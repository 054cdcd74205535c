package output

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/lscli/lscli/internal/yamlout"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// ClusterTable shows the objects of a simulated target cluster for
// `lscli get --target`, one row each, sorted by kind, namespace and name:
//
//	KIND NAMESPACE NAME STATUS          (wide: + APIVERSION GENERATION)
//
// STATUS is the object's kstatus (Current green, Failed red, anything else
// yellow, such as InProgress or Terminating). Empty values show as "-".
// opts.NoHeaders, LabelColumns and ShowLabels work as in Table; SortBy is
// not read. It returns NoObjects when objs is empty. It is a pure function.
func ClusterTable(objs []*unstructured.Unstructured, st Styles, opts TableOptions) string {
	if len(objs) == 0 {
		return NoObjects
	}
	t := &table{header: []string{"KIND", "NAMESPACE", "NAME", "STATUS"}, noHeader: opts.NoHeaders}
	if opts.Wide {
		t.header = append(t.header, "APIVERSION", "GENERATION")
	}
	objs = sortClusterObjects(objs)
	for _, o := range objs {
		row := []cell{plain(o.GetKind()), plain(orDash(o.GetNamespace())), plain(o.GetName()),
			{text: kstatusOf(o), style: Styles.Status}}
		if opts.Wide {
			row = append(row, plain(o.GetAPIVersion()), plain(generationText(o.GetGeneration())))
		}
		t.rows = append(t.rows, row)
	}
	addLabels(t, labelsOf(objs), opts)
	return t.render(st)
}

// kstatusOf is the kstatus of o, or "Unknown" when it cannot be computed.
func kstatusOf(o *unstructured.Unstructured) string {
	res, err := kstatus.Compute(o)
	if err != nil {
		return kstatus.UnknownStatus.String()
	}
	return res.Status.String()
}

// Status shows a kstatus: Current green, Failed red, others yellow.
func (s Styles) Status(st string) string {
	switch st {
	case kstatus.CurrentStatus.String():
		return s.Green(st)
	case kstatus.FailedStatus.String():
		return s.Red(st)
	}
	return s.Yellow(st)
}

// sortClusterObjects returns a copy of objs sorted by kind, namespace, name
// and apiVersion.
func sortClusterObjects(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	out := append([]*unstructured.Unstructured(nil), objs...)
	key := func(o *unstructured.Unstructured) string {
		return o.GetKind() + "\x00" + o.GetNamespace() + "\x00" + o.GetName() + "\x00" + o.GetAPIVersion()
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

// ClusterList writes the objects of a simulated target cluster to w as a
// Kubernetes List in format "json" or "yaml", sorted as ClusterTable sorts
// them, without metadata.managedFields, with keys in alphabetical order (as
// kubectl shows unstructured objects).
func ClusterList(objs []*unstructured.Unstructured, format string, w io.Writer) error {
	if format != FormatJSON && format != FormatYAML {
		return fmt.Errorf("unknown output format %q (allowed: %s, %s)", format, FormatJSON, FormatYAML)
	}
	list := kubeList{APIVersion: "v1", Kind: "List", Items: make([]json.RawMessage, 0, len(objs))}
	for _, o := range sortClusterObjects(objs) {
		o = o.DeepCopy()
		o.SetManagedFields(nil)
		item, err := marshalJSON(o.Object, "")
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", o.GetKind(), o.GetName(), err)
		}
		list.Items = append(list.Items, item)
	}
	return writeList(list, format, w)
}

// ClusterObject writes one object of a simulated target cluster to w in
// format "json" or "yaml", as `kubectl get KIND NAME -o json` prints it:
// without metadata.managedFields, keys in alphabetical order.
func ClusterObject(o *unstructured.Unstructured, format string, w io.Writer) error {
	o = o.DeepCopy()
	o.SetManagedFields(nil)
	data, err := marshalJSON(o.Object, "    ")
	if err != nil {
		return fmt.Errorf("encode %s %s: %w", o.GetKind(), o.GetName(), err)
	}
	if format == FormatYAML {
		if data, err = yamlout.FromJSON(data); err != nil {
			return fmt.Errorf("convert %s %s to YAML: %w", o.GetKind(), o.GetName(), err)
		}
	}
	_, err = w.Write(data)
	return err
}

// generationText is the generation, or "-" for kinds that have none
// (ConfigMaps, Secrets, Namespaces, ...).
func generationText(g int64) string {
	if g == 0 {
		return "-"
	}
	return strconv.FormatInt(g, 10)
}

// ClusterPrint writes the objects of a simulated cluster in one of
// kubectl's other formats (name, jsonpath, custom-columns, go-template and
// their file forms), as PrintWith writes the simulation's objects: a List
// sorted as ClusterList sorts it, or with single and exactly one object the
// object itself; managedFields are left out.
func ClusterPrint(objs []*unstructured.Unstructured, format string, single, noHeaders bool, w io.Writer) error {
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List"}}
	for _, o := range sortClusterObjects(objs) {
		o = o.DeepCopy()
		o.SetManagedFields(nil)
		list.Items = append(list.Items, *o)
	}
	var obj runtime.Object = list
	if single && len(list.Items) == 1 {
		obj = &list.Items[0]
	}
	p, err := printer(format, noHeaders)
	if err != nil {
		return err
	}
	return printTo(p, obj, format, w)
}
