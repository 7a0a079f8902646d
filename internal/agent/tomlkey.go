package agent

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/tomlread"
)

// tomlPath is a key path in one spelling, for comparing paths and writing
// them in a table header: each key a basic string ([tomlread.Quote]).
func tomlPath(keys ...string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = tomlread.Quote(k)
	}
	return strings.Join(q, ".")
}
