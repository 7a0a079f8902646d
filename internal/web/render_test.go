package web

import (
	"regexp"
	"strings"
	"testing"
)

func TestRenderBody(t *testing.T) {
	tests := []struct{ body, want string }{
		{"See [[ci-runs]].\n", `<p>See <a class="wikilink" href="/m/project/ci-runs">ci-runs</a>.</p>`},
		{"Run `make <x>`\n", "<p>Run <code>make &lt;x&gt;</code></p>"},
		{"- a\n- b\n\ntext", "<ul><li>a</li><li>b</li></ul><p>text</p>"},
		{"```\n<script>\n```", "<pre><code>&lt;script&gt;\n</code></pre>"},
		{"[[Not A Name]] [[../x]]", "<p>[[Not A Name]] [[../x]]</p>"},
		{`<img src=x onerror=alert(1)>`, "<p>&lt;img src=x onerror=alert(1)&gt;</p>"},
	}
	for _, tt := range tests {
		if got := string(renderBody("project", tt.body)); got != tt.want {
			t.Errorf("renderBody(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// markup is every tag renderBody writes; anything else in its output
// would be the body's own markup let through.
var markup = regexp.MustCompile(`</?(p|ul|li|pre|code)>|<a class="wikilink" href="/m/project/[a-z0-9-]+">|</a>`)

// FuzzRenderBody: whatever a body holds, the only tags in the page are
// renderBody's own.
func FuzzRenderBody(f *testing.F) {
	f.Add("Run `make deploy` from the root; see [[ci-runs-on-main]].\n\n- one\n- two\n```\ncode <b>\n```\n")
	f.Add("[[a]]`[[b]]`[[")
	f.Add("<script>alert(1)</script> [[x\"onclick=y]]")
	f.Fuzz(func(t *testing.T, body string) {
		out := markup.ReplaceAllString(string(renderBody("project", body)), "")
		if strings.ContainsAny(out, "<>") {
			t.Fatalf("renderBody(%q) lets markup through: %q", body, out)
		}
	})
}
