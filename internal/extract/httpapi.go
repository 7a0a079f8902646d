package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// maxReply bounds how much of a reply is read. A Messages or chat
// completions reply of DefaultMaxOutputTokens is some 20 KB of JSON, and
// one of a model's largest output (64k tokens) under 1 MB.
const maxReply = 4 << 20

// maxErrorReply bounds how much of an error reply is read; the rest is
// dropped, not an error.
const maxErrorReply = 64 << 10

// An apiError is a reply with a status other than 2xx, and what its
// headers and body say. Type and Message come from either API's error
// shape (Anthropic's {"type":"error","error":{"type","message"}},
// OpenAI's {"error":{"message","type","code"}}) or from the flat
// {"message","type"} and {"error":"…"} some compatible servers send; a
// body in none of them (an HTML page from a proxy) leaves Type empty and
// Message an excerpt of it.
type apiError struct {
	Status    int
	Header    http.Header
	Type      string // such as rate_limit_error or overloaded_error
	Message   string
	Code      string // OpenAI's error code, when given
	RequestID string // the request-id header (Anthropic), else x-request-id (OpenAI)
}

// Error returns the reply's message, else its status text: the
// [APIError] wrapping it gives the status.
func (e *apiError) Error() string {
	switch {
	case e.Message != "":
		return e.Message
	case http.StatusText(e.Status) != "":
		return http.StatusText(e.Status)
	}
	return "status " + strconv.Itoa(e.Status)
}

// httpClient returns c, or a default client, made not to follow
// redirects: a redirect comes back as an [*apiError] instead of carrying
// the API key to wherever it points.
func httpClient(c *http.Client) *http.Client {
	if c == nil {
		c = &http.Client{}
	}
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &nc
}

// postJSON posts in, as JSON, to endpoint with header added and decodes
// a 2xx reply into out. A reply with another status is an [*apiError].
// An error of the connection is c's own (a *url.Error), which [retrying]
// takes for a broken connection.
//
// Both providers call it instead of their SDKs: each makes one request,
// with retries of its own, and the SDKs' package initialisation cost
// every mnemo process (every hook) milliseconds before main ran.
func postJSON(ctx context.Context, c *http.Client, endpoint string, header http.Header, in, out any) error {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // the digest's <, > and & as they are
	if err := enc.Encode(in); err != nil {
		return fmt.Errorf("encode the request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body.Bytes()))
	if err != nil {
		// Not wrapped: this *url.Error is a bad base URL, and would be
		// retried as a broken connection.
		return fmt.Errorf("new request: %s", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "mnemo")
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorReply))
		return newAPIError(res, data)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, maxReply+1))
	if err != nil {
		return fmt.Errorf("read the reply: %w", err)
	}
	if len(data) > maxReply {
		return fmt.Errorf("the reply is larger than %d MB", maxReply>>20)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the reply is not the API's JSON (%s): %w", excerpt(string(data), 100), err)
	}
	return nil
}

// newAPIError reads the error of a reply whose body is data.
func newAPIError(res *http.Response, data []byte) *apiError {
	e := &apiError{Status: res.StatusCode, Header: res.Header, RequestID: res.Header.Get("request-id")}
	if e.RequestID == "" {
		e.RequestID = res.Header.Get("x-request-id")
	}
	if loc := res.Header.Get("Location"); loc != "" && res.StatusCode/100 == 3 {
		e.Message = "redirected to " + loc
		return e
	}
	var body struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		e.Message = excerpt(string(data), 200)
		return e
	}
	var inner struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	switch {
	case len(body.Error) == 0 || string(body.Error) == "null":
		e.Type, e.Message = body.Type, body.Message // {"message","type"}, as vLLM sends
	case json.Unmarshal(body.Error, &inner) == nil:
		e.Type, e.Message, e.Code = inner.Type, inner.Message, jsonString(inner.Code)
	default:
		json.Unmarshal(body.Error, &e.Message) // {"error":"…"}, as Ollama sends
	}
	return e
}

// jsonString returns a JSON string's value, a number's text, or "" for
// null or nothing.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}
