package memory

import "unicode/utf8"

// EstimateTokens returns the number of model tokens s is taken to cost: its
// characters divided by four, rounded up. It is the one estimate mnemo uses
// everywhere (budgets, stats, hook limits), so that numbers agree; it is
// deliberately simple and errs high for code, low for CJK text.
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}
