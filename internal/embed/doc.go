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
// lays the matrices out once outside Go's heap and multiplies by them
// directly: as stored where the processor has AVX-512 (3.3 MB; its
// kernels decode each row of a panel into registers as they go, see
// gemm_quant.go), as float16 where it converts it, F16C (9.8 MB), and as
// float32 elsewhere (20 MB). Between two MCP recalls the weights leave
// the caches (a recall reads 5 MB of vectors and more), so a query's
// embedding is bound by reading them: as stored, a query of 8 tokens
// took 0.69 ms after 32 MB of other reads where float16 took 1.02.
//
// The tokenizer and the encoder follow the reference JavaScript runtime
// (@energetic-ai/embeddings 0.2.0 on TensorFlow.js) operation for
// operation; testdata/golden.json holds the reference's token ids and
// vectors for fixed texts (gen/ref/golden.js), which the tests compare.
//
// A [Model] is safe for concurrent use.
package embed
