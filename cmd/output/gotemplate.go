package output

import (
	"encoding/base64"
	"fmt"
	"io"
	"reflect"
	"text/template"

	"k8s.io/apimachinery/pkg/runtime"
)

// goTemplatePrinter is kubectl's go-template printer (cli-runtime's
// GoTemplatePrinter: the template "output" with kubectl's functions exists
// and base64decode, missing keys allowed), except for what it does when the
// template fails: kubectl's writes a debugging dump of every object to the
// output, where a script reads it as the answer; this one only returns the
// error (see printTo).
type goTemplatePrinter struct {
	template *template.Template
}

func newGoTemplatePrinter(text string) (*goTemplatePrinter, error) {
	t, err := template.New("output").
		Funcs(template.FuncMap{"exists": exists, "base64decode": base64decode}).
		Parse(text)
	if err != nil {
		return nil, err
	}
	t.Option("missingkey=default")
	return &goTemplatePrinter{template: t}, nil
}

// PrintObj prints obj with the template.
func (p *goTemplatePrinter) PrintObj(obj runtime.Object, w io.Writer) error {
	return p.execute(w, obj)
}

// execute applies the template to obj's content, as kubectl's does to
// obj's JSON decoded; a panic of a function is an error.
func (p *goTemplatePrinter) execute(w io.Writer, obj runtime.Object) (err error) {
	u, ok := obj.(runtime.Unstructured)
	if !ok {
		return fmt.Errorf("go-template: %T is not unstructured", obj)
	}
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("caught panic: %+v", x)
		}
	}()
	return p.template.Execute(w, u.UnstructuredContent())
}

// base64decode is kubectl's go-template function of that name.
func base64decode(v string) (string, error) {
	data, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return "", fmt.Errorf("base64 decode failed: %v", err)
	}
	return string(data), nil
}

// exists is kubectl's go-template function of that name: whether item has
// a value at the indices (map keys, list indices), one after the other.
func exists(item any, indices ...any) bool {
	v := reflect.ValueOf(item)
	for _, i := range indices {
		index := reflect.ValueOf(i)
		var isNil bool
		if v, isNil = indirect(v); isNil {
			return false
		}
		switch v.Kind() {
		case reflect.Array, reflect.Slice, reflect.String:
			var x int64
			switch index.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				x = index.Int()
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				x = int64(index.Uint())
			default:
				return false
			}
			if x < 0 || x >= int64(v.Len()) {
				return false
			}
			v = v.Index(int(x))
		case reflect.Map:
			if !index.IsValid() {
				index = reflect.Zero(v.Type().Key())
			}
			if !index.Type().AssignableTo(v.Type().Key()) {
				return false
			}
			if x := v.MapIndex(index); x.IsValid() {
				v = x
			} else {
				v = reflect.Zero(v.Type().Elem())
			}
		default:
			return false
		}
	}
	_, isNil := indirect(v)
	return !isNil
}

func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
		if v.Kind() == reflect.Interface && v.NumMethod() > 0 {
			break
		}
	}
	return v, false
}
