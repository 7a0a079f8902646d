package longsession

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWrite: a session stops at the turn that reaches its size, is the
// same each time, and is one JSON object a line.
func TestWrite(t *testing.T) {
	tests := []struct {
		name string
		size Size
	}{
		{"prompts", Size{Prompts: 300}},
		{"bytes", Size{Bytes: 256 << 10}},
		{"both, prompts first", Size{Prompts: 10, Bytes: 1 << 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b bytes.Buffer
			n, err := Write(&a, tt.size)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Write(&b, tt.size); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("two writes of %+v differ (%d and %d bytes, %v)", tt.size, a.Len(), b.Len(), err)
			}
			if tt.size.Prompts > 0 && n != tt.size.Prompts {
				t.Errorf("Write(%+v) = %d prompts, want %d", tt.size, n, tt.size.Prompts)
			}
			if tt.size.Prompts == 0 && int64(a.Len()) < tt.size.Bytes {
				t.Errorf("Write(%+v) wrote %d bytes, want at least %d", tt.size, a.Len(), tt.size.Bytes)
			}
			prompts := 0
			for i, line := range bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n")) {
				var e struct {
					Type    string `json:"type"`
					Message struct {
						Content any `json:"content"`
					} `json:"message"`
				}
				if err := json.Unmarshal(line, &e); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if _, ok := e.Message.Content.(string); ok && e.Type == "user" {
					prompts++
				}
			}
			if prompts != n {
				t.Errorf("%d prompts in the lines, Write said %d", prompts, n)
			}
		})
	}
	if _, err := Write(&bytes.Buffer{}, Size{}); err == nil {
		t.Errorf("Write with no size: no error")
	}
}
