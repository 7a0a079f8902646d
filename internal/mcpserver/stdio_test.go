package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestIsResponse(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, true},
		{`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"x"}}`, true},
		{`{"result":{},"jsonrpc":"2.0","id":7}`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"ping"}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, false},
		{`{"jsonrpc":"2.0","result":{}}`, false},
		{`not json`, false},
	}
	for _, tt := range tests {
		if got := isResponse([]byte(tt.line)); got != tt.want {
			t.Errorf("isResponse(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func FuzzGuard(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + "junk\n[1]\nnull\n"))
	f.Add([]byte("{\"id\":{\"a\":1}}\n\xff\n[[[[\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		g := &guard{out: &out}
		half := len(data) / 2
		pass := append(g.feed(data[:half], false), g.feed(data[half:], true)...)
		// Every line passed on is one the SDK decodes; every answer is JSON.
		for line := range bytes.Lines(pass) {
			if code, msg := judge(bytes.TrimSpace(line)); code != 0 {
				t.Fatalf("passed %q, which judge refuses: %s", line, msg)
			}
		}
		for line := range bytes.Lines(out.Bytes()) {
			if !json.Valid(line) {
				t.Fatalf("answered with a line that is not JSON: %q", line)
			}
		}
	})
}
