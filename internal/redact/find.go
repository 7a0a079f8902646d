package redact

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// defaultRedactor is the Redactor behind [Find] and [Check], with the
// default options: built once, on first use, and never changed after.
var defaultRedactor = sync.OnceValue(func() *Redactor { return New(Options{}) })

// Find returns the secrets in text, sorted, each with its kind, line and
// column and never the secret itself: what a write must refuse. They are
// what [Redactor.String] removes, by the same patterns, except <private>
// spans, which mark what a transcript must not carry but are not secrets.
// Find is safe for concurrent use.
func Find(text string) []Finding {
	fs := defaultRedactor().Find(text)
	return slices.DeleteFunc(fs, func(f Finding) bool { return f.Kind == KindPrivate })
}

// TokenKind returns the kind of secret tok is, taken as one token (a
// provider's credential, a JSON Web Token, a random-looking string, the
// hex or base64 of a secret), or "": what [Find] says of a text that is
// tok alone, without the passes that need words around a value. A
// memory's name is one token.
func TokenKind(tok string) string {
	for i := 0; i < len(tok); i++ {
		if !isTokenChar(tok[i]) && tok[i] != '=' {
			return ""
		}
	}
	r := defaultRedactor()
	kind := ""
	if fs := r.classify(nil, tok, 0, len(tok)); len(fs) > 0 {
		kind = fs[0].kind
	}
	if enc := r.encodedKind(tok, 0); enc != "" && (kind == "" || priority(enc) > priority(kind)) {
		return enc // what it hides names it better; a name in hex is a slug too
	}
	return kind
}

// String returns text with every secret and <private> span replaced, as
// [Redactor.String] does with the default options.
func String(text string) string { return defaultRedactor().String(text) }

// Describe names a kind of finding for people: "GitHub token", "AWS
// access key", "password".
func Describe(kind string) string {
	switch kind {
	case KindPrivate:
		return "private span"
	case KindPrivateKey:
		return "private key"
	case KindURLPassword:
		return "password in a URL"
	case KindPassword:
		return "password"
	case KindToken:
		return "token"
	case KindAPIKey:
		return "API key"
	case KindSecret:
		return "secret"
	case KindJWT:
		return "JSON Web Token"
	case KindHighEntropy:
		return "random-looking token"
	}
	if name := providerName(kind); name != "" {
		return name
	}
	return kind
}

// ErrSecret is the condition of every [SecretError], so that
// errors.Is(err, ErrSecret) tells a refused secret from other failures.
var ErrSecret = errors.New("refused, secrets are never stored")

// A SecretError is a write refused because its text holds a secret. It
// says what kind of secret and where, never the secret.
type SecretError struct {
	Field string // what the text was given as, such as "body" or "description"; may be empty
	Line  int    // 1-based line within the field; 0 for a field of one line
	Kind  string // as in [Finding.Kind]
}

// Error reads "body: line 3: GitHub token: refused, secrets are never stored".
func (e *SecretError) Error() string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(Describe(e.Kind))
	b.WriteString(": ")
	b.WriteString(ErrSecret.Error())
	return b.String()
}

func (e *SecretError) Unwrap() error { return ErrSecret }

// SecretErrors returns the [*SecretError]s in err's tree, in order, so
// that a caller can word a refusal its own way.
func SecretErrors(err error) []*SecretError {
	switch e := err.(type) {
	case nil:
		return nil
	case *SecretError:
		return []*SecretError{e}
	case interface{ Unwrap() []error }:
		var out []*SecretError
		for _, inner := range e.Unwrap() {
			out = append(out, SecretErrors(inner)...)
		}
		return out
	}
	return SecretErrors(errors.Unwrap(err))
}

// A Field is named text to check, such as a memory's body or a tool's
// argument.
type Field struct {
	Name, Text string
	Lines      bool // a field of lines by nature (a body): its secrets' lines are given even when it has one
}

// Check returns a [*SecretError] for each secret in the fields, in order,
// joined with [errors.Join]; nil when they hold none. A line is given for
// a field of lines, or of more than one line.
func Check(fields ...Field) error {
	var errs []error
	for _, f := range fields {
		multi := f.Lines || strings.Contains(f.Text, "\n")
		for _, fd := range Find(f.Text) {
			e := &SecretError{Field: f.Name, Kind: fd.Kind}
			if multi {
				e.Line = fd.Line
			}
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}
