// Package embed turns text into sentence vectors with Universal Sentence
// Encoder lite (Google; Apache-2.0, see NOTICE), in pure Go: a
// SentencePiece tokenizer with an 8,000-piece vocabulary, then a
// two-layer transformer whose token vectors are averaged into one vector
// of 512 values, of length 1. Texts are cut at 128 tokens. The model
// reads English; other text gets mostly unknown tokens.
//
// The weights are built into the binary quantized (model.bin, 4.4 MB:
// the embedding table, feed-forward, pooling and second attention
// matrices in 4 bits, the rest in int8), written by gen/pack from the
// pinned npm tarball; see gen/regen.sh. [Load] reads only their
// directory and the vocabulary; [Model.Embed] multiplies by the matrices
// where they are, decoding a chunk of columns at a time on each core, and
// decodes only the embedding rows of its tokens. A long-lived process that
// embeds many queries (the MCP server) uses [LoadResident] instead, which
// decodes the matrices once outside Go's heap (10 MB as float16 where the
// processor converts it, F16C; 20 MB as float32 elsewhere) and multiplies
// by them directly.
//
// The tokenizer and the encoder follow the reference JavaScript runtime
// (@energetic-ai/embeddings 0.2.0 on TensorFlow.js) operation for
// operation; testdata/golden.json holds the reference's token ids and
// vectors for fixed texts (gen/ref/golden.js), which the tests compare.
//
// A [Model] is safe for concurrent use.
package embed
