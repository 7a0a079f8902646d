package extract

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// maxBackoff caps the wait between retries of a 529, 5xx or broken
// connection.
const maxBackoff = 30 * time.Second

// retrying calls call until it succeeds, a retry is not allowed, or
// cfg.MaxRetries retries are done. An HTTP error status is an
// [*apiError]; any other error but a broken connection (a *url.Error)
// or a timed-out call is final. Each call gets cfg.Timeout.
//
// Retried: a 429 with retry-after (or retry-after-ms) of at most
// cfg.MaxRetryAfter, after that long; 408, 409, 5xx (529 included) and
// broken connections, after cfg.Backoff doubled at each retry (or the
// server's retry-after). Not retried: a 429 without retry-after, which is
// how a spend cap answers and keeps answering; other 4xx; anything the
// server marks x-should-retry: false; a wait that would pass ctx's
// deadline.
func retrying(ctx context.Context, cfg Config, provider string, call func(context.Context) (reply, error)) (reply, error) {
	maxRetries := max(cfg.MaxRetries, 0)
	for attempt := 0; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		rep, err := call(cctx)
		cancel()
		rep.Usage.Calls = attempt + 1 // failed attempts are calls too
		if err == nil {
			return rep, nil
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		wait, retry, final := decide(cfg, provider, err, attempt)
		if !retry || attempt >= maxRetries {
			return rep, final
		}
		if d, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(d) {
			return rep, final
		}
		cfg.Logger.Debug("extract: retrying", "provider", provider, "attempt", attempt+1, "wait", wait, "err", final)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return rep, ctx.Err()
		case <-t.C:
		}
	}
}

// decide says whether and when to retry after err, and the error to
// return when not.
func decide(cfg Config, provider string, err error, attempt int) (time.Duration, bool, error) {
	backoff := min(cfg.Backoff<<attempt, maxBackoff)
	var f *apiError
	if !errors.As(err, &f) {
		var ue *url.Error
		if errors.As(err, &ue) || errors.Is(err, context.DeadlineExceeded) {
			return backoff, true, err
		}
		return 0, false, err
	}
	after, hasAfter := retryAfter(f.Header)
	apiErr := &APIError{Provider: provider, Status: f.Status, Type: f.Type, RequestID: f.RequestID, RetryAfter: after, Err: err}
	if f.Header.Get("x-should-retry") == "false" {
		return 0, false, apiErr
	}
	switch {
	case f.Status == http.StatusTooManyRequests:
		if !hasAfter || after > cfg.MaxRetryAfter {
			return 0, false, apiErr
		}
		return after, true, apiErr
	case f.Status == http.StatusRequestTimeout, f.Status == http.StatusConflict, f.Status >= 500:
		if hasAfter && after <= cfg.MaxRetryAfter {
			return after, true, apiErr
		}
		return backoff, true, apiErr
	}
	return 0, false, apiErr
}

// retryAfter reads retry-after-ms, else retry-after (seconds or an HTTP
// date).
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}
