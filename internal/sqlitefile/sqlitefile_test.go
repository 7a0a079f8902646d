package sqlitefile

import "testing"

func TestURI(t *testing.T) {
	tests := []struct{ path, query, want string }{
		{"/s/index.db", "", "file:/s/index.db"},
		{"/s/index.db", "_txlock=immediate", "file:/s/index.db?_txlock=immediate"},
		{"/h#x/q.db", "a=1", "file:/h%23x/q.db?a=1"},
		{"/h?x/q.db", "", "file:/h%3fx/q.db"},
		{"/100%/q.db", "", "file:/100%25/q.db"},
	}
	for _, tt := range tests {
		if got := URI(tt.path, tt.query); got != tt.want {
			t.Errorf("URI(%q, %q) = %q, want %q", tt.path, tt.query, got, tt.want)
		}
	}
}
