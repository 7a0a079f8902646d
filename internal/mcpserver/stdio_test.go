package mcpserver

import "testing"

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
