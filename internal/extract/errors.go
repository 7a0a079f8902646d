package extract

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Conditions an extraction can end in, for [errors.Is]. ErrTooShort and
// ErrBudget mean the session was deliberately not sent to a model: a
// worker marks the job done and skipped, not failed.
var (
	ErrTooShort      = errors.New("too little work to be worth a model call")
	ErrBudget        = errors.New("token budget spent")
	ErrRefused       = errors.New("the model refused")
	ErrInvalidOutput = errors.New("invalid output")
	// ErrRateLimited is a 429 that could not be waited out: it had no
	// retry-after (a spend cap, which keeps failing), asked for longer
	// than Config.MaxRetryAfter, or kept coming back.
	ErrRateLimited = errors.New("rate limited")
	ErrUnavailable = errors.New("provider not set up")
)

// A BudgetError says which budget stopped an extraction. It matches
// [ErrBudget].
type BudgetError struct {
	Scope  string // "session" or "day"
	Limit  int    // tokens
	Spent  int    // tokens already spent in that scope
	Needed int    // estimated tokens of the call that did not fit
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%s budget of %d tokens: %d spent, the next call needs up to %d", e.Scope, e.Limit, e.Spent, e.Needed)
}

// Is reports whether target is [ErrBudget].
func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

// An OutputError is a model reply that stayed invalid after the repair
// request. Raw is the last reply, whole, for the log. It matches
// [ErrInvalidOutput].
type OutputError struct {
	Provider string
	Raw      string
	Problems []string // each "[index].field: problem", or a problem of the whole reply
}

func (e *OutputError) Error() string {
	const show = 3
	s := "invalid output after a repair request: " + strings.Join(e.Problems[:min(show, len(e.Problems))], "; ")
	if n := len(e.Problems) - show; n > 0 {
		s += " (and " + strconv.Itoa(n) + " more)"
	}
	return s
}

// Is reports whether target is [ErrInvalidOutput].
func (e *OutputError) Is(target error) bool { return target == ErrInvalidOutput }

// An APIError is an HTTP error status a model API answered with, once
// retries were done or not allowed.
type APIError struct {
	Provider   string
	Status     int
	Type       string        // the API's error type, such as rate_limit_error or overloaded_error
	RequestID  string        // the request-id header, when given
	RetryAfter time.Duration // from retry-after, when given
	Err        error         // the reply's error, with its message
}

func (e *APIError) Error() string {
	s := "HTTP " + strconv.Itoa(e.Status)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.RequestID != "" {
		s += " (request " + e.RequestID + ")"
	}
	if e.Status == 429 && e.RetryAfter == 0 {
		s += ": no retry-after, so not retried"
	}
	if e.Type == "" && e.Err != nil { // a reply not in the API's error shape: an excerpt of it, or claude's message
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the reply's error.
func (e *APIError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrRateLimited] for a 429.
func (e *APIError) Is(target error) bool { return target == ErrRateLimited && e.Status == 429 }
