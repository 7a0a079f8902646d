package transcript

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiLog digests a session file as Gemini CLI 0.61.0 wrote it (a
// record log: a header, messages upserted by id, $set): the person's
// prompt alone (not the <session_context> block, not the memory mnemo's
// hook added), the failing command as a failure (Gemini records it as a
// success with "Exit Code: 2" inside), and the model's answer.
func TestGeminiLog(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "gemini-log.jsonl"))
	if m := d.Meta; m.SessionID != "9241daf7-48d3-4009-9f26-fdffdd945df3" || m.Agent != "gemini" {
		t.Errorf("Meta = %+v", m)
	}
	var prompts, said []string
	for _, turn := range d.Turns {
		for _, it := range turn.Items {
			switch it.Kind {
			case ItemUser:
				prompts = append(prompts, it.Text)
			case ItemAssistant:
				said = append(said, it.Text)
			}
		}
	}
	if strings.Join(prompts, "|") != "Which package manager for web/?" {
		t.Errorf("prompts = %q, want the one the person typed", prompts)
	}
	if strings.Join(said, "|") != "The folder is missing." {
		t.Errorf("assistant = %q", said)
	}
	fails := d.Failures()
	if len(fails) != 1 || fails[0].Call.Arg != "ls web/missing-dir" || !strings.Contains(fails[0].Call.Error, "No such file or directory") {
		t.Errorf("Failures() = %+v, want the failing ls", fails)
	}
	for _, not := range []string{"session_context", "hook_context", "mnemo-memory", "untrusted_context"} {
		if strings.Contains(d.String(), not) {
			t.Errorf("the digest holds %q:\n%s", not, d.String())
		}
	}
}

// TestGeminiLogRecords: messages are upserted by id, $set.messages
// replaces the list unless it is the history rebuilt on resume (it starts
// where the log starts), $rewindTo drops the message named and those
// after, and lines of kinds not known are stepped over.
func TestGeminiLogRecords(t *testing.T) {
	head := `{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00Z","lastUpdated":"2026-01-01T00:00:00Z","kind":"main"}` + "\n"
	user := func(id, text string) string {
		return `{"id":"` + id + `","timestamp":"2026-01-01T00:00:01Z","type":"user","content":[{"text":"` + text + `"}]}` + "\n"
	}
	ctx := `{"$set":{"messages":[{"id":"s0","type":"user","content":"<session_context>x"}]}}` + "\n"
	tests := []struct {
		name, log string
		want      []string
	}{
		{"appended", head + user("a", "one") + user("b", "two"), []string{"one", "two"}},
		{"upserted", head + user("a", "one") + user("a", "one again"), []string{"one again"}},
		{"set replaces", head + user("a", "one") + `{"$set":{"messages":[{"id":"c","type":"user","content":"three"}]}}` + "\n" + user("d", "four"),
			[]string{"three", "four"}},
		{"set other keys", head + user("a", "one") + `{"$set":{"lastUpdated":"x"}}` + "\n", []string{"one"}},
		{"rewound", head + user("a", "one") + user("b", "two") + user("c", "three") + `{"$rewindTo":"b"}` + "\n" + user("e", "five"),
			[]string{"one", "five"}},
		{"resumed: the history rebuilt is not taken for it", head + ctx + user("a", "one") + head + ctx +
			`{"$set":{"messages":[{"id":"s0","type":"user","content":"<session_context>"},{"id":"a_response","type":"user","content":"one rebuilt"}]}}` + "\n" +
			user("c", "three"), []string{"one", "three"}},
		{"unknown and broken lines", head + `{"$future":1}` + "\n" + "not json\n" + user("a", "one"), []string{"one"}},
	}
	for _, tt := range tests {
		r := NewReader(strings.NewReader(tt.log), 0)
		var got []string
		for {
			e, err := r.Next()
			if err != nil {
				break
			}
			for _, b := range e.Content {
				got = append(got, b.Text)
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: texts %q, want %q", tt.name, got, tt.want)
		}
		if r.Meta().SessionID != "s1" {
			t.Errorf("%s: session %q", tt.name, r.Meta().SessionID)
		}
	}
}
