package transcript

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A FileOp says what a tool call did to a file.
type FileOp int

// File operations of tool calls.
const (
	FileNone   FileOp = iota
	FileRead          // Read, NotebookRead
	FileEdit          // Edit, MultiEdit, NotebookEdit, Write over an existing file
	FileCreate        // Write of a new file
)

// maxArg is the longest key argument kept, in characters.
const maxArg = 200

// toolInput holds the arguments the digest shows, across tools.
type toolInput struct {
	FilePath        string `json:"file_path"`
	NotebookPath    string `json:"notebook_path"`
	Path            string `json:"path"`
	Command         string `json:"command"`
	Pattern         string `json:"pattern"`
	Glob            string `json:"glob"`
	URL             string `json:"url"`
	Query           string `json:"query"`
	Description     string `json:"description"`
	SubagentType    string `json:"subagent_type"`
	Skill           string `json:"skill"`
	Name            string `json:"name"`
	BashID          string `json:"bash_id"`
	ShellID         string `json:"shell_id"`
	RunInBackground bool   `json:"run_in_background"`
	Todos           []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"todos"`
	Prompt    string `json:"prompt"`
	Questions []struct {
		Question    string `json:"question"`
		MultiSelect bool   `json:"multiSelect"`
		Options     []struct {
			Label       string `json:"label"`
			Description string `json:"description"`
		} `json:"options"`
	} `json:"questions"`
}

// A callInfo is what the digest shows of a tool call's arguments.
type callInfo struct {
	arg        string // the key argument
	path       string // the file touched, relative to cwd when inside it
	op         FileOp
	background bool // a command started in the background
	questions  []Question
	prompt     string // Task, Agent: the instructions given
	command    commandCheck
}

// describeCall returns what the digest shows of a tool call's arguments.
func describeCall(name string, raw json.RawMessage, cwd string) callInfo {
	var arg, path string
	var op FileOp
	var questions []Question
	var cmd commandCheck
	var in toolInput
	_ = json.Unmarshal(raw, &in) // partial input still gives what it can
	file := in.FilePath
	if file == "" {
		file = in.NotebookPath
	}
	switch name {
	case "Bash", "PowerShell":
		arg = in.Command
		cmd = checkCommand(in.Command)
	case "Read", "NotebookRead":
		path, op = relPath(file, cwd), FileRead
		arg = path
	case "Write":
		path, op = relPath(file, cwd), FileCreate
		arg = path
	case "Edit", "MultiEdit", "NotebookEdit":
		path, op = relPath(file, cwd), FileEdit
		arg = path
	case "Glob", "Grep":
		arg = in.Pattern
		if name == "Grep" && in.Glob != "" {
			arg += " in " + in.Glob
		}
		if in.Path != "" {
			arg += " in " + relPath(in.Path, cwd)
		}
	case "WebFetch":
		arg = in.URL
	case "WebSearch":
		arg = in.Query
	case "Task", "Agent":
		arg = in.Description
		if in.SubagentType != "" {
			arg += " (" + in.SubagentType + ")"
		}
	case "TodoWrite":
		arg = todoSummary(in)
	case "BashOutput":
		arg = in.BashID
	case "KillBash", "KillShell":
		arg = in.ShellID
	case "Skill":
		arg = in.Skill
	case "SlashCommand":
		arg = in.Command
	case "AskUserQuestion":
		for _, q := range in.Questions {
			qq := Question{Text: q.Question, Multiple: q.MultiSelect}
			for _, o := range q.Options {
				opt := o.Label
				if o.Description != "" {
					opt += ": " + o.Description
				}
				qq.Options = append(qq.Options, opt)
			}
			questions = append(questions, qq)
		}
	default:
		arg = firstNonEmpty(relPath(file, cwd), relPath(in.Path, cwd), in.Command, in.Pattern, in.URL, in.Query, in.Name, in.Description)
		if arg == "" {
			arg = compactJSON(raw)
		}
	}
	return callInfo{arg: cut(oneLine(arg), maxArg), path: path, op: op, background: in.RunInBackground,
		questions: questions, prompt: in.Prompt, command: cmd}
}

func todoSummary(in toolInput) string {
	done := 0
	doing := ""
	for _, t := range in.Todos {
		switch t.Status {
		case "completed":
			done++
		case "in_progress":
			if doing == "" {
				doing = t.Content
			}
		}
	}
	s := strconv.Itoa(len(in.Todos)) + " todos, " + strconv.Itoa(done) + " done"
	if doing != "" {
		s += "; doing: " + doing
	}
	return s
}

// relPath returns p relative to cwd when p lies inside cwd.
func relPath(p, cwd string) string {
	if cwd == "" || p == "" {
		return p
	}
	if p == cwd {
		return "."
	}
	if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(cwd, "/")+"/"); ok && rest != "" {
		return rest
	}
	return p
}

// oneLine returns the first non-blank line of s, followed by " ..." when
// more lines follow.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return s
	}
	return strings.TrimSpace(s[:i]) + " ..."
}

// cut shortens s to max characters, marking the cut with " ...".
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return s[:runeOffset(s, max)] + " ..."
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) > 4096 {
		raw = raw[:4096]
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return strings.Join(strings.Fields(string(raw)), " ")
	}
	s := b.String()
	if s == "{}" || s == "null" {
		return ""
	}
	return s
}
