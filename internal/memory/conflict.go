package memory

import (
	"fmt"
	"strings"
)

// conflictLines returns the lines of data from its first git conflict
// marker ("<<<<<<< ") to the last closing one (">>>>>>> "), or 0, 0 when
// it holds no conflict.
func conflictLines(data []byte) (first, last int) {
	if !strings.Contains(string(data), "<<<<<<<") {
		return 0, 0
	}
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case first == 0 && conflictStart(line, "<<<<<<<"):
			first = i + 1
		case first > 0 && conflictStart(line, ">>>>>>>"):
			last = i + 1
		}
	}
	if last == 0 {
		return 0, 0
	}
	return first, last
}

func conflictStart(line, marker string) bool {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), marker)
	return ok && (rest == "" || rest[0] == ' ')
}

// conflictError is the ParseError of a file git left in conflict.
func conflictError(path string, data []byte) error {
	first, last := conflictLines(data)
	if first == 0 {
		return nil
	}
	return &ParseError{Path: path, Line: first,
		Err: fmt.Errorf("%w in lines %d-%d: keep what both sides say (where they state different facts, keep one here and 'mnemo add' the other), remove the markers, then run 'mnemo reindex'", ErrConflict, first, last)}
}
