package memory

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRefusesConflict(t *testing.T) {
	head := "---\nname: api-port\ndescription: The API port\ntype: project\nsource: manual\n---\n"
	tests := []struct {
		name, body string
		line       int // of the first marker; 0: parses
	}{
		{"in the body", "<<<<<<< HEAD\nport 7070\n=======\nport 9090\n>>>>>>> abc123\n", 7},
		{"bare markers", "<<<<<<<\na\n=======\nb\n>>>>>>>\n", 7},
		{"crlf", "<<<<<<< HEAD\r\na\r\n=======\r\nb\r\n>>>>>>> x\r\n", 7},
		{"only an opening", "<<<<<<< not closed\nport\n", 0},
		{"quoted in text", "Git writes `<<<<<<< HEAD` and `>>>>>>> x` at a conflict.\n", 0},
		{"longer runs", "<<<<<<<< x\n>>>>>>>> y\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("api-port.md", []byte(head+tt.body))
			var pe *ParseError
			switch {
			case tt.line == 0 && err != nil:
				t.Errorf("Parse = %v, want a memory", err)
			case tt.line > 0 && (!errors.Is(err, ErrConflict) || !errors.As(err, &pe) || pe.Line != tt.line):
				t.Errorf("Parse = %v, want ErrConflict at line %d", err, tt.line)
			case tt.line > 0 && !strings.Contains(err.Error(), "api-port.md:7: git merge conflict in lines 7-11"):
				t.Errorf("Parse = %v, want the file and the lines", err)
			}
		})
	}
}
