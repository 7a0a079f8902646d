package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// An object is a JSON object that keeps its keys in order, so that editing
// a settings file changes only what mnemo owns.
type object struct {
	keys []string
	vals map[string]any // values: *object, []any, string, json.Number, bool, nil
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// obj returns the object under k, creating it when absent. It fails when k
// holds something else, rather than overwrite a user's value.
func (o *object) obj(k string) (*object, error) {
	v, ok := o.vals[k]
	if !ok {
		c := newObject()
		o.set(k, c)
		return c, nil
	}
	c, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", k)
	}
	return c, nil
}

// parseJSON reads a JSON object keeping key order. Empty input is an empty object.
func parseJSON(data []byte) (*object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return newObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: unexpected text after the JSON object", lineAt(data, dec.InputOffset()))
	}
	o, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return o, nil
}

// lineAt returns the line of data that byte offset off is on, from 1.
func lineAt(data []byte, off int64) int {
	return 1 + bytes.Count(data[:min(max(off, 0), int64(len(data)))], []byte("\n"))
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}

// formatJSON writes v as JSON indented by two spaces, as Claude Code and
// most editors write settings files, ending with a newline.
func formatJSON(v any) []byte {
	var b strings.Builder
	writeValue(&b, v, "")
	b.WriteString("\n")
	return []byte(b.String())
}

func writeValue(b *strings.Builder, v any, indent string) {
	switch t := v.(type) {
	case *object:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(indent + "  ")
			writeString(b, k)
			b.WriteString(": ")
			writeValue(b, t.vals[k], indent+"  ")
			if i < len(t.keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(t)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	case []string:
		arr := make([]any, len(t))
		for i, s := range t {
			arr[i] = s
		}
		writeValue(b, arr, indent)
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case int:
		fmt.Fprintf(b, "%d", t)
	case bool:
		fmt.Fprintf(b, "%t", t)
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("agent: cannot write %T as JSON", v))
	}
}

func writeString(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}
