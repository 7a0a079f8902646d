package index

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// porterWords are words that exercise each step of the Porter algorithm.
var porterWords = strings.Fields(`
caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional
rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli
vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti
sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness
revival allowance inference airliner gyroscopic adjustable defensible irritant replacement
adjustment dependent adoption homologou communism activate angulariti homologous effective
bowdlerize probate rate cease controll roll generalizations oscillators running runs ran
runner easily fairly authentication authenticated authenticating caching caches cached
indexes indexing indexed databases migration migrations deploying deployment tests testing
tested services servicing policies policy studies studying agreement agreed eed need needed
bleed sky skies yes yet dying lying tying crying flying played playing player players
national nationality rationalization generously generous organization organizing
conditionally relationship relationships happiness happily argued arguing argument
hopping hoping hoped hopped filing filling filled spelling spelled spelt controlled
controlling fizzing fizzed bussing bussed misses missed messing messed agreed disagreed
sensational sensationalism logically biology biologist probability probabilities
sympathize sympathizing analyze analyzing realize realization formalizations
Café NAÏVE résumé façade Ångström Łódź smørrebrød jalapeño Dvořák straße Ærø
`) // and a few the folding of diacritics must get right

// TestWordsMatchSQLite compares Words with the terms FTS5's tokenizer
// (unicode61, remove_diacritics 2, porter) stores for the same words.
func TestWordsMatchSQLite(t *testing.T) {
	words := porterWords
	if path := os.Getenv("MNEMO_STEM_WORDS"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		words = strings.Fields(string(data))
	}
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "stem.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE VIRTUAL TABLE w USING fts5 (x, tokenize = 'porter unicode61 remove_diacritics 2')",
		"CREATE VIRTUAL TABLE v USING fts5vocab (w, 'instance')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if _, err := tx.Exec("INSERT INTO w (rowid, x) VALUES (?, ?)", i+1, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT doc, term FROM v")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	bad := 0
	for rows.Next() {
		var doc int
		var want string
		if err := rows.Scan(&doc, &want); err != nil {
			t.Fatal(err)
		}
		w := words[doc-1]
		if got := Words(w); len(got) != 1 || got[0] != want {
			bad++
			if bad <= 30 {
				t.Errorf("Words(%q) = %q, want [%q]", w, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d words stem differently", bad, len(words))
	}
}
