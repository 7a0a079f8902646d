package plural

import "strconv"

// N returns n and the word for n of a thing: "1 draft", "0 drafts",
// "3 memories".
func N(n int, one, many string) string { return strconv.Itoa(n) + " " + Of(n, one, many) }

// Of returns one when n is 1, many otherwise: the word alone, for a
// phrase that puts the count elsewhere ("is" or "are", "it" or "them").
func Of(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
