package consolidate

// SameFact reports whether two texts (a memory's description and body,
// as [text] joins them) say the same fact: nearly the same words and the
// same values, the test consolidation applies to a duplicate, on words
// alone. What a hook gives a session counts such memories as one. A text
// that extends another is not the same: it says more.
func SameFact(a, b string) bool {
	sa, sb := parseStatement(a), parseStatement(b)
	return relate(sa, sb, jaccard(sa.words, sb.words)) == same
}
