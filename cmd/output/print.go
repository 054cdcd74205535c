package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/util/jsonpath"
	"k8s.io/kubectl/pkg/cmd/get"

	"github.com/lscli/lscli/fakecluster"
	_ "github.com/lscli/lscli/internal/kubectli18n" // before package get translates its help texts
	"github.com/lscli/lscli/internal/yamlout"
)

// The formats Print writes besides FormatJSON and FormatYAML, as kubectl
// names them. FormatJSONPath and FormatCustomColumns take their argument
// after the "=".
const (
	FormatName              = "name"
	FormatJSONPath          = "jsonpath="
	FormatJSONPathFile      = "jsonpath-file="
	FormatCustomColumns     = "custom-columns="
	FormatCustomColumnsFile = "custom-columns-file="
	FormatGoTemplate        = "go-template="
	FormatGoTemplateFile    = "go-template-file="
)

// TemplateFormats are the formats of kubectl's printers that take a
// template, a spec or a file of one after the "=".
var TemplateFormats = []string{FormatJSONPath, FormatJSONPathFile, FormatCustomColumns, FormatCustomColumnsFile, FormatGoTemplate, FormatGoTemplateFile}

// Print writes objs to w in one of kubectl's formats:
//
//   - "json", "yaml": a Kubernetes List as List writes it; with single and
//     exactly one object, the object itself, as `kubectl get KIND NAME -o
//     json` prints it;
//   - "name": kind.group/name, one a line (installation.landscaper.gardener.cloud/demo);
//   - "jsonpath=TEMPLATE": kubectl's JSONPath template, applied to the
//     object (single) or to the List; missing keys print nothing;
//   - "custom-columns=HEADER:PATH,...": a table with one column per spec
//     and one row per object; a missing value prints <none>;
//   - "go-template=TEMPLATE": a Go template, as kubectl's, applied as
//     jsonpath is;
//   - "jsonpath-file=FILE", "custom-columns-file=FILE", "go-template-file=FILE":
//     the same with the template or spec read from FILE (custom-columns-file:
//     a line of headers and a line of paths, as kubectl reads it).
//
// Objects are in Landscaper's API shape with apiVersion and kind, as List
// writes them (an Execution's deploy items in clear). The printers are
// cli-runtime's and kubectl's own, so templates written for kubectl work.
func Print(objs []fakecluster.Object, format string, single bool, w io.Writer) error {
	return PrintWith(objs, format, PrintOptions{Single: single}, w)
}

// PrintOptions change what PrintWith prints.
type PrintOptions struct {
	// Single prints one object itself rather than a List (kubectl's KIND
	// NAME).
	Single bool
	// NoHeaders leaves the header line out of custom-columns.
	NoHeaders bool
	// SortBy orders a List by the value at this JSONPath (kubectl's
	// --sort-by); empty keeps List's order.
	SortBy string
}

// PrintWith is Print with options.
func PrintWith(objs []fakecluster.Object, format string, opts PrintOptions, w io.Writer) error {
	single := opts.Single
	if single && len(objs) == 1 && (format == FormatJSON || format == FormatYAML) {
		return printOne(objs[0], format, w)
	}
	ordered, err := sortByField(sortObjects(objs), opts.SortBy)
	if err != nil {
		return err
	}
	switch format {
	case FormatJSON, FormatYAML:
		return writeObjectList(ordered, format, w)
	}
	list, err := unstructuredList(ordered)
	if err != nil {
		return err
	}
	var obj runtime.Object = list
	if single && len(list.Items) == 1 {
		obj = &list.Items[0]
	}
	p, err := printer(format, opts.NoHeaders)
	if err != nil {
		return err
	}
	return printTo(p, obj, format, w)
}

// spoolLimit is how much output of a template or custom-columns printer is
// held back until it is known to print without error; more is written as
// it comes.
const spoolLimit = 4 << 20

// printTo prints obj with p to w. A template's or column's error while it
// prints is a *TemplateError, and what it printed up to then (at most
// spoolLimit bytes) is not written: a script reading stdout gets nothing
// rather than half a list.
func printTo(p printers.ResourcePrinter, obj runtime.Object, format string, w io.Writer) error {
	sp := &spool{w: w}
	var err error
	switch p := p.(type) {
	case *goTemplatePrinter:
		err = p.execute(sp, obj)
	case *printers.JSONPathPrinter:
		// kubectl's printer puts the whole object into its error.
		u, ok := obj.(runtime.Unstructured)
		if !ok {
			return fmt.Errorf("jsonpath: %T is not unstructured", obj)
		}
		err = p.JSONPath.Execute(sp, u.UnstructuredContent())
	case *printers.NamePrinter:
		return p.PrintObj(obj, w)
	default:
		err = p.PrintObj(obj, sp)
	}
	if err != nil {
		return &TemplateError{Format: format, Err: err}
	}
	return sp.flush()
}

// TemplateError is a template, JSONPath or custom-columns spec that failed
// while it printed the objects (an index out of range, a template that
// calls itself for ever): invalid input.
type TemplateError struct {
	// Format is the -o value.
	Format string
	Err    error
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("-o %s: cannot print the objects: %v", shownFormat(e.Format), e.Err)
}

func (e *TemplateError) Unwrap() error { return e.Err }

// shownFormat names an -o value in messages: the format of an inline
// template (which can be long), the -file form with its file.
func shownFormat(format string) string {
	for _, f := range []string{FormatJSONPathFile, FormatCustomColumnsFile, FormatGoTemplateFile} {
		if strings.HasPrefix(format, f) {
			return format
		}
	}
	for _, f := range []string{FormatJSONPath, FormatCustomColumns, FormatGoTemplate} {
		if strings.HasPrefix(format, f) {
			return strings.TrimSuffix(f, "=")
		}
	}
	return format
}

// spool holds output back up to spoolLimit bytes, then writes it through.
type spool struct {
	w       io.Writer
	buf     bytes.Buffer
	through bool
}

func (s *spool) Write(p []byte) (int, error) {
	if s.through {
		return s.w.Write(p)
	}
	s.buf.Write(p)
	if s.buf.Len() > spoolLimit {
		if err := s.flush(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush writes what is held back, and then everything as it comes.
func (s *spool) flush() error {
	s.through = true
	_, err := s.w.Write(s.buf.Bytes())
	s.buf.Reset()
	return err
}

// PrintEmpty writes the empty answer of format: an empty List for json and
// yaml, nothing for the others.
func PrintEmpty(format string, w io.Writer) error {
	if format == FormatJSON || format == FormatYAML {
		return List(nil, format, w)
	}
	return nil
}

// CheckFormat reports a jsonpath template or custom-columns spec that does
// not parse; other formats are not its business.
func CheckFormat(format string) error {
	if IsTemplateFormat(format) {
		_, err := printer(format, false)
		return err
	}
	return nil
}

// IsTemplateFormat reports whether format is one of TemplateFormats with
// its template, spec or file.
func IsTemplateFormat(format string) bool {
	return slices.ContainsFunc(TemplateFormats, func(f string) bool { return strings.HasPrefix(format, f) })
}

// maxTemplateFile is the size of the largest template or spec file read: a
// file that never ends (/dev/zero) is refused instead of read for ever.
const maxTemplateFile = 1 << 20

// templateFile reads the template or spec file of a -o ...-file= format.
func templateFile(format, name string) (string, error) {
	data, err := readTemplateFile(name)
	if err != nil {
		return "", fmt.Errorf("%s: read the file: %w", strings.TrimSuffix(format, "="), err)
	}
	return string(data), nil
}

func readTemplateFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTemplateFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTemplateFile {
		return nil, fmt.Errorf("%s is larger than 1 MiB: a template is smaller", name)
	}
	return data, nil
}

// inlineForms maps the -file= formats whose file holds what the inline
// format takes after its "=" to that format. (custom-columns-file holds
// another layout: headers, then paths.)
var inlineForms = map[string]string{FormatJSONPathFile: FormatJSONPath, FormatGoTemplateFile: FormatGoTemplate}

// printer returns cli-runtime's or kubectl's printer for format;
// noHeaders leaves out custom-columns' header.
func printer(format string, noHeaders bool) (printers.ResourcePrinter, error) {
	for file, inline := range inlineForms {
		if name, ok := strings.CutPrefix(format, file); ok {
			text, err := templateFile(file, name)
			if err != nil {
				return nil, err
			}
			return printer(inline+text, noHeaders)
		}
	}
	switch {
	case format == FormatName:
		return &printers.NamePrinter{}, nil
	case strings.HasPrefix(format, FormatJSONPath):
		p, err := printers.NewJSONPathPrinter(strings.TrimPrefix(format, FormatJSONPath))
		if err != nil {
			return nil, fmt.Errorf("invalid jsonpath template: %w", err)
		}
		p.AllowMissingKeys(true)
		return p, nil
	case strings.HasPrefix(format, FormatGoTemplate):
		p, err := newGoTemplatePrinter(strings.TrimPrefix(format, FormatGoTemplate))
		if err != nil {
			return nil, fmt.Errorf("invalid go-template: %w", err)
		}
		return p, nil
	case strings.HasPrefix(format, FormatCustomColumnsFile):
		name := strings.TrimPrefix(format, FormatCustomColumnsFile)
		text, err := templateFile(FormatCustomColumnsFile, name)
		if err != nil {
			return nil, err
		}
		p, err := get.NewCustomColumnsPrinterFromTemplate(strings.NewReader(text), unstructured.UnstructuredJSONScheme)
		if err != nil {
			return nil, fmt.Errorf("invalid custom-columns file %s: %w", name, err)
		}
		p.NoHeaders = noHeaders
		return checkColumns(p)
	case strings.HasPrefix(format, FormatCustomColumns):
		p, err := get.NewCustomColumnsPrinterFromSpec(strings.TrimPrefix(format, FormatCustomColumns), unstructured.UnstructuredJSONScheme, noHeaders)
		if err != nil {
			return nil, fmt.Errorf("invalid custom-columns spec: %w", err)
		}
		return checkColumns(p)
	}
	return nil, fmt.Errorf("unknown output format %q", format)
}

// checkColumns parses the column paths of p, which its printer parses only
// when it prints: a bad one is refused before a command runs.
func checkColumns(p *get.CustomColumnsPrinter) (printers.ResourcePrinter, error) {
	for i, c := range p.Columns {
		if err := jsonpath.New(fmt.Sprintf("column%d", i)).Parse(c.FieldSpec); err != nil {
			return nil, fmt.Errorf("invalid custom-columns spec: column %q: path %s: %w", c.Header, c.FieldSpec, err)
		}
	}
	return p, nil
}

// printOne writes one object as JSON (indented by 4 spaces, like kubectl)
// or YAML.
func printOne(o fakecluster.Object, format string, w io.Writer) error {
	item, err := marshalItem(o)
	if err != nil {
		return fmt.Errorf("encode %s %s: %w", kindOf(o), qualifiedName(o), err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, item, "", "    "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	data := buf.Bytes()
	if format == FormatYAML {
		if data, err = yamlout.FromJSON(data); err != nil {
			return fmt.Errorf("convert to YAML: %w", err)
		}
	}
	_, err = w.Write(data)
	return err
}

// unstructuredList converts objs, in their order, to a List of
// unstructured objects in Landscaper's API shape.
func unstructuredList(objs []fakecluster.Object) (*unstructured.UnstructuredList, error) {
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List"}}
	for _, o := range objs {
		item, err := marshalItem(o)
		if err != nil {
			return nil, fmt.Errorf("encode %s %s: %w", kindOf(o), qualifiedName(o), err)
		}
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(item); err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", kindOf(o), qualifiedName(o), err)
		}
		list.Items = append(list.Items, u)
	}
	return list, nil
}
