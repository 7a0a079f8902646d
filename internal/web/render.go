package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// pageNames are the templates in templates/, each a "content" block
// inside layout.html.
var pageNames = []string{"inbox", "draft_edit", "memories", "memory", "stale", "graph", "activity"}

type pages struct{ t map[string]*template.Template }

var funcs = template.FuncMap{
	"date":    func(t time.Time) string { return dateOf(t) },
	"pct":     func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
	"body":    renderBody,
	"memlink": memLink,
	"shown":   shown,
	"join":    strings.Join,
}

func dateOf(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02")
}

func parsePages() (*pages, error) {
	base, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("ui: templates: %w", err)
	}
	p := &pages{t: map[string]*template.Template{}}
	for _, n := range pageNames {
		t, err := template.Must(base.Clone()).ParseFS(files, "templates/"+n+".html")
		if err != nil {
			return nil, fmt.Errorf("ui: templates: %w", err)
		}
		p.t[n] = t
	}
	return p, nil
}

// A view is what the layout gets: the page's own data in Data.
type view struct {
	Title, Nav, CSRF, Flash, Error string
	Drafts                         int // for the inbox count in the navigation
	Data                           any
}

// render writes a page whole, or an error if the template fails, so a
// half page never reaches the browser.
func (s *Server) render(w http.ResponseWriter, r *http.Request, name string, v view) {
	v.CSRF = s.guard.csrf
	v.Flash = r.URL.Query().Get("msg")
	v.Error = r.URL.Query().Get("err")
	if ds, err := s.cfg.Inbox.List(); err == nil {
		v.Drafts = len(ds)
	}
	var buf bytes.Buffer
	if err := s.pages.t[name].Execute(&buf, v); err != nil {
		http.Error(w, "mnemo ui: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// back redirects after a change to to, with a message (msg) or an error
// (err) shown at the top of the page.
func back(w http.ResponseWriter, r *http.Request, to, key, text string) {
	u, _ := url.Parse(to)
	q := u.Query()
	q.Set(key, text)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

func memLink(where, name string) string {
	return "/m/" + url.PathEscape(where) + "/" + url.PathEscape(name)
}

// renderBody turns a memory body into HTML: paragraphs, fenced code,
// lists, `code` and [[links]] (to where, the memory's vault). All text is
// escaped; only the tags written here are markup.
func renderBody(where, body string) template.HTML {
	var b strings.Builder
	inCode, inList := false, false
	closeList := func() {
		if inList {
			b.WriteString("</ul>")
			inList = false
		}
	}
	for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			closeList()
			if inCode {
				b.WriteString("</code></pre>")
			} else {
				b.WriteString("<pre><code>")
			}
			inCode = !inCode
		case inCode:
			b.WriteString(template.HTMLEscapeString(line) + "\n")
		case t == "":
			closeList()
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
			if !inList {
				b.WriteString("<ul>")
				inList = true
			}
			b.WriteString("<li>" + inline(where, t[2:]) + "</li>")
		default:
			closeList()
			b.WriteString("<p>" + inline(where, t) + "</p>")
		}
	}
	if inCode {
		b.WriteString("</code></pre>")
	}
	closeList()
	return template.HTML(b.String())
}

// inline escapes a line and marks up `code` and [[links]] in it.
func inline(where, s string) string {
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "`[")
		if i < 0 {
			b.WriteString(template.HTMLEscapeString(s))
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:i]))
		s = s[i:]
		if s[0] == '`' {
			if j := strings.IndexByte(s[1:], '`'); j >= 0 {
				b.WriteString("<code>" + template.HTMLEscapeString(s[1:j+1]) + "</code>")
				s = s[j+2:]
				continue
			}
		} else if strings.HasPrefix(s, "[[") {
			if j := strings.Index(s, "]]"); j > 2 && memory.ValidName(s[2:j]) {
				n := s[2:j]
				b.WriteString(`<a class="wikilink" href="` + template.HTMLEscapeString(memLink(where, n)) + `">` + n + "</a>")
				s = s[j+2:]
				continue
			}
		}
		b.WriteString(template.HTMLEscapeString(s[:1]))
		s = s[1:]
	}
	return b.String()
}
