package redact

import "strings"

// How a command takes a password in its arguments.
const (
	userColonPassword = iota // curl -u admin:hunter2, --user=admin:hunter2
	nextArgument             // sshpass -p hunter2
	attached                 // mysql -phunter2 (a space would make it prompt)
)

// A cmdFlag is a flag through which a command takes a password without
// any name saying so.
type cmdFlag struct {
	command, flag string
	form          int
}

// cmdFlags lists the common clients' password flags. The command is the
// program's base name, or the word before the flag's subcommand (docker
// login, podman login, helm registry login).
var cmdFlags = [...]cmdFlag{
	{"curl", "-u", userColonPassword},
	{"curl", "--user", userColonPassword},
	{"curl", "-U", userColonPassword},
	{"curl", "--proxy-user", userColonPassword},
	{"sshpass", "-p", nextArgument},
	{"login", "-p", nextArgument},
	{"mysql", "-p", attached},
	{"mysqldump", "-p", attached},
	{"mysqladmin", "-p", attached},
	{"mariadb", "-p", attached},
	{"mariadb-dump", "-p", attached},
}

// findCommandPasswords finds passwords given on a command line to the
// clients in [cmdFlags]: curl -u admin:hunter2, sshpass -p hunter2, mysql
// -phunter2, docker login -p hunter2. Only the password is replaced. The
// flag counts only after its command's name, in prose too, and before
// the next pipe, ; or &: docker run -u 1000:1000 and ssh -p 2222 stay.
func findCommandPasswords(fs []span, s string) []span {
	if !namesCommand(s) {
		return fs
	}
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n') + 1
		if end == 0 {
			end = len(s) - off
		}
		if line := s[off : off+end]; namesCommand(line) {
			fs = commandLine(fs, off, line)
		}
		off += end
	}
	return fs
}

// namesCommand reports whether text may name a command of [cmdFlags]:
// only such lines are split into words, most lines of a transcript
// naming none.
func namesCommand(text string) bool {
	for _, f := range cmdFlags {
		if strings.Contains(text, f.command) {
			return true
		}
	}
	return false
}

// commandLine adds the passwords given in line, which starts at off, to fs.
func commandLine(fs []span, off int, line string) []span {
	command := ""
	for _, w := range shellWords(line) {
		word := line[w[0]:w[1]]
		if word == "|" || word == "||" || word == "&&" || word == ";" || word == "&" {
			command = ""
			continue
		}
		if name := word[strings.LastIndexByte(word, '/')+1:]; takesPassword(name) {
			command = name // in prose too: "run curl -u …"
			continue
		}
		for _, f := range cmdFlags {
			if f.command != command {
				continue
			}
			if sp, ok := flagPassword(line, w, f, word); ok {
				fs = append(fs, span{off + sp.start, off + sp.end, KindPassword})
			}
		}
	}
	return fs
}

// takesPassword reports whether a command of that name is in [cmdFlags].
func takesPassword(name string) bool {
	for _, f := range cmdFlags {
		if f.command == name {
			return true
		}
	}
	return false
}

// flagPassword returns the password the flag f gives in the word at w of
// line, if that word is f.
func flagPassword(line string, w [2]int, f cmdFlag, word string) (span, bool) {
	var vs, ve int
	var quoted bool
	switch {
	case f.form == attached:
		if !strings.HasPrefix(word, f.flag) || len(word) == len(f.flag) {
			return span{}, false
		}
		vs, ve, quoted = valueSpan(line, w[0]+len(f.flag))
	case word == f.flag:
		vs, ve, quoted = valueSpan(line, skipSpaces(line, w[1]))
	case strings.HasPrefix(f.flag, "--") && strings.HasPrefix(word, f.flag+"="):
		vs, ve, quoted = valueSpan(line, w[0]+len(f.flag)+1)
	default:
		return span{}, false
	}
	if f.form == userColonPassword {
		c := strings.IndexByte(line[vs:ve], ':')
		if c < 0 {
			return span{}, false // a user alone: curl asks for the password
		}
		vs += c + 1
	}
	if ve <= vs || !secretValue(line[vs:ve], KindPassword, quoted, true) {
		return span{}, false
	}
	return span{vs, ve, KindPassword}, true
}

// shellWords returns the spans of line's words, split at spaces and tabs
// outside quotes, with ; | & as words of their own.
func shellWords(line string) [][2]int {
	var ws [][2]int
	start, quote := -1, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '\'':
			quote = c
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if start >= 0 {
				ws = append(ws, [2]int{start, i})
				start = -1
			}
			continue
		case c == ';' || c == '|' || c == '&':
			if start >= 0 {
				ws = append(ws, [2]int{start, i})
			}
			j := i + 1
			if j < len(line) && line[j] == c {
				j++
			}
			ws = append(ws, [2]int{i, j})
			start, i = -1, j-1
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		ws = append(ws, [2]int{start, len(line)})
	}
	return ws
}
