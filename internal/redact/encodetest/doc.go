// Package encodetest writes text in the encodings package redact reads
// (every byte escaped, base64 wrapped at a width), for the tests that
// hand a secret so written to each path in and out. Only tests import it.
package encodetest
