package hook

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/plural"
)

// nudgeFile keeps, in the state folder, the day the person was last told
// that drafts wait for review.
const nudgeFile = "review-nudge"

// reviewNudge returns the message for the person (not the model) when
// drafts wait for review, at most once a day per project: the review debt
// reaches the one who can pay it. "" when there is nothing to say today.
func reviewNudge(w *world) string {
	n := consolidate.Waiting(w.state)
	if n == 0 {
		return ""
	}
	today := w.now.Format("2006-01-02")
	path := filepath.Join(w.state, nudgeFile)
	if data, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(data)) == today {
		return ""
	}
	if err := atomicfile.WriteFile(path, []byte(today+"\n"), 0o644); err != nil {
		w.log.Warn("keep the day of the review reminder", "err", err)
		return "" // better no reminder than one every session
	}
	if n == 1 {
		return "mnemo: 1 memory waits for review: run `mnemo ui` (or `mnemo inbox`)"
	}
	return "mnemo: " + plural.N(n, "memory waits", "memories wait") + " for review: run `mnemo ui` (or `mnemo inbox`)"
}
