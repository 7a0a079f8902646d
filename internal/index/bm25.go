package index

import (
	"cmp"
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// BM25 parameters, FTS5's.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// typeCode is a memory type in the lengths blob; 0 is any other.
func typeCode(t memory.Type) byte {
	for i, tt := range memory.Types {
		if t == tt {
			return byte(i + 1)
		}
	}
	return 0
}

// writeLengths rewrites the lengths row from the memories, with the
// generation of the sync that writes it.
func writeLengths(ctx context.Context, tx *sql.Tx, gen int64) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, ntok, type FROM memories ORDER BY id")
	if err != nil {
		return err
	}
	defer rows.Close()
	data := []byte{}
	docs, tokens := 0, 0
	for rows.Next() {
		var id int64
		var ntok int
		var typ string
		if err := rows.Scan(&id, &ntok, &typ); err != nil {
			return err
		}
		if need := 3 * int(id+1); len(data) < need {
			data = append(data, make([]byte, need-len(data))...)
		}
		binary.LittleEndian.PutUint16(data[3*id:], uint16(min(ntok, math.MaxUint16)))
		data[3*id+2] = typeCode(memory.Type(typ))
		docs++
		tokens += ntok
	}
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "INSERT OR REPLACE INTO lengths (k, docs, tokens, data, gen) VALUES (1, ?, ?, ?, ?)",
		docs, tokens, data, gen)
	return err
}

// lengths is the lengths row.
type lengths struct {
	gen    int64 // the generation of the sync that wrote it
	stats  int64 // the count of changes to the recall statistics, read with it when db keeps its rows
	docs   int
	avg    float64
	data   []byte
	filter []byte // allowed type codes; nil allows all
}

func (l *lengths) of(id int64) (n int, typ byte, ok bool) {
	if id < 0 || 3*id+3 > int64(len(l.data)) {
		return 0, 0, false
	}
	return int(binary.LittleEndian.Uint16(l.data[3*id:])), l.data[3*id+2], true
}

// A WordQuery asks the word index for memories.
type WordQuery struct {
	Terms   []string // any text: cut into words by [Words], so nothing is FTS5 syntax
	Weights Weights
	Filter  Filter
	Limit   int
	// A search costs one step per memory holding each word. Counting from
	// the rarest word up, the words past max(CommonDocs, CommonShare × all
	// memories) memories in all are dropped: they are the commonest, say
	// the least (BM25 gives them little weight) and cost the most. The
	// rarest word always stays. Zero values keep every word.
	CommonDocs  int
	CommonShare float64
}

// A WordResult is what a word search found.
type WordResult struct {
	Hits    []Hit    // best first
	Dropped []string // stems left out as too common
}

// Search returns up to q.Limit memories holding any word of q.Terms, best
// first by BM25 (FTS5's formula: k1 1.2, b 0.75, weighted column
// frequencies) computed from the occurrences in the word index; ties go to
// the lower row. At most 64 distinct words are searched.
func (db *DB) Search(ctx context.Context, q WordQuery) (WordResult, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (WordResult, error) { return db.searchWords(ctx, q) })
}

func (db *DB) searchWords(ctx context.Context, q WordQuery) (WordResult, error) {
	var stems []string
	for _, t := range q.Terms {
		stems = append(stems, Words(t)...)
	}
	slices.Sort(stems)
	stems = slices.Compact(stems)
	stems = stems[:min(len(stems), 64)]
	if len(stems) == 0 || q.Limit <= 0 {
		return WordResult{}, nil
	}
	res, err := db.search(ctx, stems, q)
	if err != nil {
		return WordResult{}, fmt.Errorf("index: search: %w", err)
	}
	return res, nil
}

func (db *DB) search(ctx context.Context, stems []string, q WordQuery) (WordResult, error) {
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return WordResult{}, err
	}
	defer tx.Rollback()
	l, err := db.readLengths(ctx, tx, q.Filter)
	if err != nil || l.docs == 0 {
		return WordResult{}, err
	}
	var dropped []string
	if budget := max(q.CommonDocs, int(q.CommonShare*float64(l.docs))); budget > 0 && len(stems) > 1 {
		if stems, dropped, err = db.prune(ctx, tx, l.gen, stems, budget); err != nil {
			return WordResult{}, err
		}
	}
	sc := db.scratch.get(len(l.data) / 3)
	defer db.scratch.put(sc)
	if err := db.bm25(ctx, tx, stems, q.Weights, l, sc); err != nil {
		return WordResult{}, err
	}
	hits, err := db.withHeads(ctx, tx, l, topHits(sc.score, stems, q.Limit))
	return WordResult{Hits: hits, Dropped: dropped}, err
}

// prune keeps the rarest stems while the memories holding them add up to
// at most budget, and always the rarest one, by the df table's counts at
// generation gen.
func (db *DB) prune(ctx context.Context, tx *sql.Tx, gen int64, stems []string, budget int) (kept, dropped []string, err error) {
	df, missing := db.words.docFreqs(gen, stems)
	if len(missing) > 0 {
		read, err := db.docFreq(ctx, tx, missing)
		if err != nil {
			return nil, nil, err
		}
		db.words.keepDocFreqs(gen, missing, read)
		for _, s := range missing {
			df[s] = read[s]
		}
	}
	order := slices.Clone(stems)
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(df[a], df[b]) })
	sum := 0
	keep := make(map[string]bool, len(stems))
	for i, s := range order {
		sum += df[s]
		keep[s] = i == 0 || sum <= budget
	}
	for _, s := range stems {
		if keep[s] {
			kept = append(kept, s)
		} else {
			dropped = append(dropped, s)
		}
	}
	return kept, dropped, nil
}

// readLengths reads the lengths row in tx. Its data (30 KB at 10,000
// memories) is read only when a sync wrote it since the last search: it
// is kept with the generation of the sync that wrote it.
func (db *DB) readLengths(ctx context.Context, tx *sql.Tx, f Filter) (*lengths, error) {
	l := &lengths{}
	var tokens int
	query, dest := "SELECT docs, tokens, gen FROM lengths WHERE k = 1", []any{&l.docs, &tokens, &l.gen}
	if db.res.on.Load() {
		query, dest = "SELECT docs, tokens, gen, "+statsGenQuery+" FROM lengths WHERE k = 1", append(dest, &l.stats)
	}
	stmt, err := db.stmt(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	err = tx.StmtContext(ctx, stmt).QueryRowContext(ctx).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	if l.data, err = db.lengthsData(ctx, tx, l.gen); err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	if l.docs > 0 {
		l.avg = float64(tokens) / float64(l.docs)
	}
	for _, t := range f.Types {
		l.filter = append(l.filter, typeCode(t))
	}
	return l, nil
}

// lengthsData returns the lengths row's data as the sync of generation
// gen wrote it, from memory when the last search read that one. It is
// shared: callers must not change it.
func (db *DB) lengthsData(ctx context.Context, tx *sql.Tx, gen int64) ([]byte, error) {
	if data := db.words.lengthsAt(gen); data != nil {
		return data, nil
	}
	var data []byte
	if err := tx.QueryRowContext(ctx, "SELECT data FROM lengths WHERE k = 1").Scan(&data); err != nil {
		return nil, err
	}
	db.words.keepLengths(gen, data)
	return data, nil
}

// bm25 scores every memory holding a stem, from the stems' occurrences
// (stems are distinct, at most 64), by row: the rows are the lengths
// row's, numbered from 0, and a slice by row costs a search a fraction
// of what maps of the few thousand memories holding its words did.
func (db *DB) bm25(ctx context.Context, tx *sql.Tx, stems []string, w Weights, l *lengths, sc *scratch) error {
	stmt, err := db.stmt(ctx, occurrencesQuery)
	if err != nil {
		return err
	}
	st := tx.StmtContext(ctx, stmt)
	defer st.Close()
	weights := w.byCode()
	for i, s := range stems {
		occ, err := db.occurrences(ctx, st, l.gen, s)
		if err != nil {
			return err
		}
		sc.f.set(occ, &weights)
		l.add(sc.score, &sc.f, i)
	}
	return nil
}

// A scratch is a word search's working memory: the scores and one
// stem's frequencies by row, 250 KB at 10,000 memories, kept between
// the searches of a process that searches again and again.
type scratch struct {
	score []scored
	f     termFreqs
}

// scratchPool holds the scratches not in use.
type scratchPool struct{ p sync.Pool }

// get returns a scratch for rows rows, every score and frequency zero.
func (sp *scratchPool) get(rows int) *scratch {
	sc, _ := sp.p.Get().(*scratch)
	if sc == nil || cap(sc.score) < rows || cap(sc.f.freq) < rows {
		return &scratch{score: make([]scored, rows),
			f: termFreqs{freq: make([]float64, rows), held: make([]bool, rows)}}
	}
	sc.score = sc.score[:rows]
	clear(sc.score)
	sc.f.freq, sc.f.held = sc.f.freq[:rows], sc.f.held[:rows]
	return sc
}

// put returns sc to the pool, its frequencies zero again: only the rows
// of the last stem set hold any.
func (sp *scratchPool) put(sc *scratch) {
	sc.f.set(nil, nil)
	sp.p.Put(sc)
}

// occurrencesQuery reads every occurrence of a stem as one integer each,
// its memory's row times 8 plus its column's code (see [Weights.byCode]),
// in the order of the word index (by row, then column), joined by commas
// into one text: one row, where a row an occurrence cost the driver more
// than SQLite's finding them (it takes the connection's mutex for every
// column of every row).
const occurrencesQuery = `SELECT group_concat(doc << 3 | CASE col WHEN 'name' THEN 1 WHEN 'description' THEN 2
	WHEN 'body' THEN 3 WHEN 'tags' THEN 4 WHEN 'files' THEN 5 WHEN 'context' THEN 6 ELSE 0 END)
	FROM memories_inst WHERE term = ?`

// termFreqs are the weighted frequencies of one stem by row, and the
// rows holding it (a column of weight 0 too) in the order first read.
type termFreqs struct {
	freq []float64
	held []bool
	rows []int64
}

// headsIn returns the heads of ids by row, read in tx with l.
func (db *DB) headsIn(ctx context.Context, tx *sql.Tx, l *lengths, ids []int64) (map[int64]Doc, error) {
	heads := make(map[int64]Doc, len(ids))
	if docs, kept, err := db.keptDocs(ctx, tx, &generations{l.gen, l.stats}, ids); kept || err != nil {
		for _, d := range docs {
			heads[d.ID] = d
		}
		return heads, err
	}
	rows, err := db.queryIDs(ctx, tx, "SELECT "+headColumns+" FROM memories m"+headJoin+" WHERE m.id IN ", ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d Doc
		if err := scanHead(rows, &d); err != nil {
			return nil, err
		}
		heads[d.ID] = d
	}
	return heads, rows.Err()
}

// occurrences returns the occurrences of stem at generation gen (see
// occurrencesQuery), from memory when a search read them at gen, else
// through st. They are shared: callers must not change them.
func (db *DB) occurrences(ctx context.Context, st *sql.Stmt, gen int64, stem string) ([]int64, error) {
	if occ, ok := db.words.occurrences(gen, stem); ok {
		return occ, nil
	}
	occ, err := readOccurrences(ctx, st, stem)
	if err != nil {
		return nil, err
	}
	db.words.keepOccurrences(gen, stem, occ)
	return occ, nil
}

// readOccurrences reads the occurrences of stem through st, which runs
// occurrencesQuery; none when no memory holds it.
func readOccurrences(ctx context.Context, st *sql.Stmt, stem string) ([]int64, error) {
	rows, err := st.QueryContext(ctx, stem)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	occ := []int64{}
	if !rows.Next() {
		return occ, rows.Err()
	}
	var list sql.RawBytes // NULL when no memory holds stem
	if err := rows.Scan(&list); err != nil {
		return nil, err
	}
	v := int64(0)
	for i, c := range list {
		if c >= '0' && c <= '9' {
			v = 10*v + int64(c-'0')
			if i+1 < len(list) {
				continue
			}
		} else if c != ',' {
			return nil, fmt.Errorf("occurrences of %q: %q in the list", stem, c)
		}
		occ = append(occ, v)
		v = 0
	}
	return occ, rows.Err()
}

// set sets f to the weighted frequencies of occ, one stem's occurrences,
// in each memory holding it.
func (f *termFreqs) set(occ []int64, weights *[8]float64) {
	for _, r := range f.rows {
		f.freq[r], f.held[r] = 0, false
	}
	f.rows = f.rows[:0]
	for _, v := range occ {
		f.add(v>>3, weights[v&7])
	}
}

// add adds weight to the frequency of row doc.
func (f *termFreqs) add(doc int64, weight float64) {
	if doc >= int64(len(f.freq)) { // past the lengths row: counted, not scored (see lengths.add)
		f.freq = append(f.freq, make([]float64, doc+1-int64(len(f.freq)))...)
		f.held = append(f.held, make([]bool, len(f.freq)-len(f.held))...)
	}
	if !f.held[doc] {
		f.held[doc] = true
		f.rows = append(f.rows, doc)
	}
	f.freq[doc] += weight
}

// byCode returns the weights of the columns by the codes of
// occurrencesQuery; code 0, any other column, weighs nothing.
func (w Weights) byCode() [8]float64 {
	return [8]float64{0, w.Name, w.Description, w.Body, w.Tags, w.Files, w.Context}
}

// add adds one stem's BM25 terms (stem i, frequencies f) to score, by row.
func (l *lengths) add(score []scored, f *termFreqs, i int) {
	n := float64(len(f.rows))
	idf := max(math.Log((float64(l.docs)-n+0.5)/(n+0.5)), 1e-6)
	for _, doc := range f.rows {
		dl, typ, ok := l.of(doc)
		if !ok || (l.filter != nil && !slices.Contains(l.filter, typ)) {
			continue
		}
		tf := f.freq[doc]
		sc := &score[doc]
		sc.score += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(dl)/l.avg))
		sc.stems |= 1 << i
	}
}

// scored is a memory's BM25 score and which stems it holds (bit i: stem i).
type scored struct {
	score float64
	stems uint64
}

// topHits returns the limit best scores, best first, ties to the lower row,
// each with the stems it holds. It keeps the best in a heap rather than
// sorting every memory that matched.
func topHits(score []scored, stems []string, limit int) []Hit {
	h := &hitHeap{}
	for id, s := range score {
		if s.score <= 0 {
			continue
		}
		c := idScore{int64(id), s.score}
		if h.Len() < limit {
			heap.Push(h, c)
		} else if better(c, (*h)[0]) {
			(*h)[0] = c
			heap.Fix(h, 0)
		}
	}
	best := []idScore(*h)
	slices.SortFunc(best, func(a, b idScore) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	hits := make([]Hit, 0, len(best))
	for _, a := range best {
		hit := Hit{ID: a.id, Score: a.s}
		for i, st := range stems {
			if score[a.id].stems&(1<<i) != 0 {
				hit.Stems = append(hit.Stems, st)
			}
		}
		hits = append(hits, hit)
	}
	return hits
}

type idScore struct {
	id int64
	s  float64
}

// better reports whether a ranks before b: a higher score, or the lower row.
func better(a, b idScore) bool {
	if a.s != b.s {
		return a.s > b.s
	}
	return a.id < b.id
}

// hitHeap is a heap with the worst of the best at its root.
type hitHeap []idScore

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(idScore)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// withHeads fills in the heads of hits, read in tx with l; hits whose
// row is gone are dropped.
func (db *DB) withHeads(ctx context.Context, tx *sql.Tx, l *lengths, hits []Hit) ([]Hit, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	heads, err := db.headsIn(ctx, tx, l, ids)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		if d, ok := heads[h.ID]; ok {
			h.Head = d
			h.Head.Stems = h.Stems
			out = append(out, h)
		}
	}
	return out, nil
}
