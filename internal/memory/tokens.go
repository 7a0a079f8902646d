package memory

import "unicode/utf8"

// EstimateTokens returns the number of model tokens s is taken to cost: its
// characters divided by four, rounded up. It is the one estimate mnemo uses
// everywhere (budgets, stats, hook limits), so that numbers agree; it is
// deliberately simple and errs high for code, low for CJK text.
func EstimateTokens(s string) int {
	return RuneTokens(utf8.RuneCountInString(s))
}

// RuneTokens is [EstimateTokens] of a text of n characters, for one counted
// in pieces without being put together.
func RuneTokens(n int) int {
	return (n + 3) / 4
}

// The budget of the context every session starts with, in tokens: the
// index lines the agent loads itself (MEMORY.md) plus what the
// session-start hook adds. ContextTokens is the default of the whole,
// which a person can set; IndexTokens is what a MEMORY.md may hold of it.
// IndexTokens is fixed, not set, so that MEMORY.md depends only on the
// files (the same on every machine, never churning in git); the hook gives
// what the budget leaves.
const (
	ContextTokens = 2000
	IndexTokens   = 1200
)
