package embed

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrepare(t *testing.T) {
	tok := mustLoad(t).tok
	tests := []struct{ in, want string }{
		{"", ""},
		{"a b", "▁a▁b"},
		{" x ", "▁▁x▁"},
		{"wait…", "▁wait..."},                  // NFKC: ellipsis
		{"non\u00a0breaking", "▁non▁breaking"}, // NFKC: no-break space is a space
		{"ＦＵＬＬ", "▁FULL"},
		{"tab\there", "▁tab\there"}, // only spaces become separators
	}
	for _, tt := range tests {
		if got := tok.prepare(tt.in); got != tt.want {
			t.Errorf("prepare(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseNFKC(t *testing.T) {
	m, err := parseNFKC(nfkcTable)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m['\u2026'], "..."; got != want {
		t.Errorf("nfkc[…] = %q, want %q", got, want)
	}
	for _, bad := range []string{"00A0 0020\n", "zz\t0020\n", "00A0\tzz\n"} {
		if _, err := parseNFKC(bad); err == nil {
			t.Errorf("parseNFKC(%q) = nil error, want one", bad)
		}
	}
}

// FuzzTokens checks what holds for any text: ids are in the vocabulary and
// not reserved, unknown ids never repeat, without unknown ids the pieces
// spell the prepared text, and the search that stops at the first text no
// piece starts with finds what trying every length finds.
func FuzzTokens(f *testing.F) {
	for _, c := range readGolden(f).Tokens {
		f.Add(c.Text)
	}
	m := mustLoad(f)
	tok := m.tok
	texts := make([]string, len(tok.score))
	for s, id := range tok.ids {
		texts[id] = s
	}
	indexed := newTokenizer(m.file.Pieces, tok.compat)
	indexed.indexStarts(m.file.Pieces)
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.encode(text)
		if got := indexed.encode(text); !slices.Equal(got, ids) {
			t.Fatalf("encode(%q) with the starts indexed = %v, want %v as every length finds", text, got, ids)
		}
		var spelled strings.Builder
		unknown := false
		for i, id := range ids {
			if id < 0 || int(id) >= len(tok.score) || (id > 0 && id < reserved) {
				t.Fatalf("encode(%q)[%d] = %d, outside the vocabulary", text, i, id)
			}
			if id == 0 {
				if i > 0 && ids[i-1] == 0 {
					t.Fatalf("encode(%q) has two unknown ids in a row at %d", text, i)
				}
				unknown = true
			}
			spelled.WriteString(texts[id])
		}
		if !unknown && utf8.ValidString(text) && utf8.RuneCountInString(text) <= maxRunes {
			if got, want := spelled.String(), tok.prepare(text); got != want {
				t.Errorf("pieces of encode(%q) spell %q, want %q", text, got, want)
			}
		}
	})
}

func TestReadable(t *testing.T) {
	tok := mustLoad(t).tok
	tests := []struct {
		text     string
		min, max float64
	}{
		{"How do we ship a release?", 0.9, 1},
		{"UserService.getByID(ctx) returns ErrNotFound", 0.6, 1},
		{"部署通过完成了吗", 0, 0},
		{"Развертывание идёт через", 0, 0.2},
		{"部署通过 make deploy 完成", 0.5, 0.7},
		{"", 0, 0},
	}
	for _, tt := range tests {
		if got := tok.readable(tt.text); got < tt.min || got > tt.max {
			t.Errorf("readable(%q) = %.2f, want in [%v, %v]", tt.text, got, tt.min, tt.max)
		}
	}
}
