package transcript

import (
	"strings"
	"testing"
	"time"
)

// TestOrderTurns: main turns keep the file's order whatever their times;
// a sub-agent's turn goes after the main turn during which it started.
func TestOrderTurns(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 30, 10, 0, s, 0, time.UTC) }
	turns := []*Turn{
		{Index: 1, Kind: TurnPrompt, Time: at(10)},
		{Index: 2, Kind: TurnPrompt, Time: at(5)}, // a clock that went back
		{Index: 3, Kind: TurnPrompt, Time: at(30)},
		{Index: 4, Kind: TurnAgent, Agent: "late", Time: at(31)},
		{Index: 5, Kind: TurnAgent, Agent: "mid", Time: at(12)},
		{Index: 6, Kind: TurnAgent, Agent: "untimed"},
	}
	call := &ToolCall{Name: "Task", Turn: 3}
	orderTurns(turns, []*ToolCall{call})
	var got []string
	for _, tt := range turns {
		got = append(got, tt.Agent+"@"+tt.Time.Format("05"))
	}
	want := "@10 @05 mid@12 @30 late@31 untimed@00"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("order = %s, want %s", s, want)
	}
	if call.Turn != 4 {
		t.Errorf("the call of turn 3 is in turn %d, want 4 (renumbered)", call.Turn)
	}
}
