// Package redact removes secrets and private spans from text before it
// leaves the process or reaches a file: each is replaced by
// "[REDACTED:kind]".
//
// What is removed:
//
//   - <private>…</private> spans, tags included, in any case, nested; an
//     unclosed <private> runs to the end of the text.
//   - Credentials with a documented prefix: Anthropic (sk-ant-), OpenAI
//     (sk-proj-, sk-), AWS access key ids (AKIA, ASIA), Google API keys
//     (AIza) and OAuth tokens, GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
//     github_pat_), GitLab (glpat-…), Slack (xox*-), Stripe (sk_live_,
//     rk_live_, whsec_), npm, PyPI, Hugging Face and others (see providers.go).
//   - JSON Web Tokens and PEM private key blocks (also when escaped inside a
//     JSON string, as in a GCP service-account file).
//   - The password of scheme://user:password@host.
//   - Values given to names that announce a secret (password, secret,
//     token, api_key, private_key, credentials, auth…), in env, shell,
//     YAML, JSON, TOML, code and command-line shapes, and Bearer tokens.
//     The name stays; only the value goes.
//   - Secrets stated in prose: "the admin password for staging is …",
//     "root pw: …", "passphrase: "…"", "the API key is …", in English and
//     in other languages and their punctuation ("mot de passe : …",
//     "Passwort ist …", "密码是…", "パスワードは …"); and a long hex or
//     random string right after a word naming a key or token ("signing
//     key 9f86d08…"), which no other rule takes, since hex alone is kept.
//   - Credentials in pieces: wrapped at a line break, continued after a
//     backslash, or cut into string literals joined in code ("ghp_…" +
//     "…"). The pieces go together; the tail never stays behind.
//   - Secrets written encoded: a run of hex (32 digits or more, 0x or
//     not), base64 or base64url (16 characters or more, padded or not,
//     wrapped over lines at any width, as base64(1), PEM and other tools
//     write it) whose decoding is text holding any of the secrets above
//     goes whole, named by the kind it hides ("[REDACTED:github-token]");
//     so does the base64 of user:password after "Basic ". Percent-encoding
//     (ghp%5F…), the escapes of JSON, JavaScript, Python, C and shell
//     (\u0067, \u{67}, \x67, \147, echo -e's \0147, \U00000067) and
//     the character references of HTML and XML (&#x67;, &#103;, &lowbar;,
//     &amp;) are undone around each escape, and only the secret they spell
//     goes.
//     Three encodings inside each other are undone, a fourth is not; at most
//     64 KiB is decoded from one run, and what decodes to binary (hashes,
//     images) is dropped after its first characters.
//   - Random-looking tokens: at least 20 characters mixing letters and
//     digits, of high Shannon entropy for their length and alphabet,
//     switching often between character classes, and not made of the
//     letter pairs of words.
//
// What is deliberately kept, because it is public or structural and mnemo's
// memories need it: git commit hashes and other hex strings (SHA-256 sums,
// UUIDs), lockfile checksums (sha512-…, h1:…), identifiers however long,
// file paths, versions, URLs without a password, API object ids (msg_…,
// toolu_…), PEM certificates and public keys, SSH public keys, and the
// base64 payload of image, font, audio and video data: URIs (media, not
// credentials; mnemo's digests never carry image bytes). Hex and escapes
// that decode to text without a secret (a sentence in hex, escaped HTML in
// JSON, a URL's %20) are kept; base64 is judged by the random-looking rule
// as before, since decoding cannot tell a short random password from a
// word. Values that are code (a variable, a call, config.token),
// placeholders (${X}, <token>, your-api-key, ****) and numbers are kept too. A hex secret (some
// providers issue 32 hex digits) is caught only when a name announces it.
//
// [Find] reports the same secrets without removing them, each with its
// kind, line and column and never its text, for refusing a write; [Check]
// turns them into a [SecretError] per secret, which names the field and
// line. One set of patterns serves both.
//
// Redaction is idempotent: redacting redacted text changes nothing. A
// [Redactor] is safe for concurrent use.
package redact
