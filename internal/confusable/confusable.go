package confusable

import "unicode"

// Latin returns the lower-case Latin letter a Cyrillic or Greek letter is
// drawn like, or r.
func Latin(r rune) rune {
	switch r {
	case 'а', 'α', 'А', 'Α':
		return 'a'
	case 'в', 'В', 'β', 'Β':
		return 'b'
	case 'с', 'С', 'ϲ':
		return 'c'
	case 'ԁ':
		return 'd'
	case 'е', 'Е', 'Ε', 'ё':
		return 'e'
	case 'һ', 'Н', 'Η':
		return 'h'
	case 'і', 'І', 'ι', 'Ι', 'ӏ':
		return 'i'
	case 'ј', 'Ј':
		return 'j'
	case 'к', 'К', 'κ', 'Κ':
		return 'k'
	case 'м', 'М', 'Μ':
		return 'm'
	case 'Ν':
		return 'n'
	case 'о', 'О', 'ο', 'Ο':
		return 'o'
	case 'р', 'Р', 'ρ', 'Ρ':
		return 'p'
	case 'ԛ':
		return 'q'
	case 'ѕ', 'Ѕ':
		return 's'
	case 'т', 'Т', 'τ', 'Τ':
		return 't'
	case 'υ', 'Υ':
		return 'u'
	case 'ν':
		return 'v'
	case 'ԝ':
		return 'w'
	case 'х', 'Х', 'χ', 'Χ':
		return 'x'
	case 'у', 'У', 'γ':
		return 'y'
	case 'Ζ':
		return 'z'
	}
	return r
}

// LookAlikes returns the Cyrillic and Greek letters drawn like the ASCII
// letter c (either case), as [Latin] maps them; none for other runes.
func LookAlikes(c rune) []rune {
	c = unicode.ToLower(c)
	var out []rune
	for r := rune(0x370); r < 0x530; r++ { // Greek, Cyrillic and its supplement
		if Latin(r) == c {
			out = append(out, r)
		}
	}
	return out
}
