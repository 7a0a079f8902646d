package staleness

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// SuspectFunc returns the recall ranking's view of stored verdicts: whether
// a memory is suspect, and why.
func SuspectFunc(verdicts map[index.Key]index.Verdict) func(index.Key) (string, bool) {
	return func(k index.Key) (string, bool) {
		v, ok := verdicts[k]
		if !ok || v.State != string(Suspect) {
			return "", false
		}
		return strings.Join(v.Reasons, "; "), true
	}
}
