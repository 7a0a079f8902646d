package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestPostJSON(t *testing.T) {
	html502 := "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	tests := []struct {
		name   string
		status int
		header map[string]string
		body   string
		want   *apiError // nil: success, or an error that is not an *apiError
		errHas string    // the error's text contains this
	}{
		{name: "success", status: 200, body: `{"text":"hi"}`},
		{name: "anthropic error", status: 529, header: map[string]string{"request-id": "req_1"},
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}`,
			want: &apiError{Status: 529, Type: "overloaded_error", Message: "Overloaded", RequestID: "req_1"}, errHas: "Overloaded"},
		{name: "openai error", status: 429, header: map[string]string{"x-request-id": "req_2"},
			body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			want: &apiError{Status: 429, Type: "insufficient_quota", Message: "You exceeded your current quota", Code: "insufficient_quota", RequestID: "req_2"}},
		{name: "openai error, code a number", status: 400,
			body: `{"error":{"message":"bad","type":"invalid_request_error","code":400}}`,
			want: &apiError{Status: 400, Type: "invalid_request_error", Message: "bad", Code: "400"}},
		{name: "an error that is a string (Ollama)", status: 404, body: `{"error":"model \"qwen\" not found, try pulling it first"}`,
			want: &apiError{Status: 404, Message: `model "qwen" not found, try pulling it first`}},
		{name: "a flat error (vLLM)", status: 400, body: `{"object":"error","message":"too long","type":"BadRequestError","param":null,"code":400}`,
			want: &apiError{Status: 400, Type: "BadRequestError", Message: "too long"}},
		{name: "an HTML 502 from a proxy", status: 502, header: map[string]string{"content-type": "text/html"}, body: html502,
			want: &apiError{Status: 502, Message: excerpt(html502, 200)}, errHas: "<title>502 Bad Gateway</title>"},
		{name: "an empty 503", status: 503, want: &apiError{Status: 503}, errHas: "Service Unavailable"},
		{name: "an unknown status, empty", status: 599, want: &apiError{Status: 599}, errHas: "status 599"},
		{name: "an error body too large is cut", status: 500, body: `{"error":{"message":"` + strings.Repeat("x", maxErrorReply) + `"}}`,
			want: &apiError{Status: 500, Message: excerpt(`{"error":{"message":"`+strings.Repeat("x", maxErrorReply), 200)}},
		{name: "a redirect is not followed", status: 308, header: map[string]string{"location": "https://elsewhere.example/v1/messages"},
			want: &apiError{Status: 308, Message: "redirected to https://elsewhere.example/v1/messages"}},
		{name: "a 2xx that is not JSON", status: 200, header: map[string]string{"content-type": "text/html"}, body: "<html>captive portal</html>",
			errHas: "not the API's JSON (<html>captive portal</html>)"},
		{name: "a 2xx too large", status: 200, body: `{"text":"` + strings.Repeat("x", maxReply) + `"}`, errHas: "larger than 4 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got http.Header
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Clone()
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			var out struct{ Text string }
			err := postJSON(context.Background(), httpClient(nil), srv.URL+"/v1/x", http.Header{"X-Api-Key": {"k"}}, map[string]string{"q": "<&>"}, &out)
			if got.Get("X-Api-Key") != "k" || got.Get("Content-Type") != "application/json" {
				t.Errorf("request headers %v, want the key and application/json", got)
			}
			if tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)) {
				t.Errorf("error %v, want it to contain %q", err, tt.errHas)
			}
			var ae *apiError
			isAPI := errors.As(err, &ae)
			switch {
			case tt.want != nil:
				if !isAPI {
					t.Fatalf("error %v (%T), want an *apiError", err, err)
				}
				if ae.Header == nil {
					t.Errorf("apiError.Header is nil, want the reply's")
				}
				ae.Header = nil
				if !reflect.DeepEqual(ae, tt.want) {
					t.Errorf("apiError = %+v, want %+v", *ae, *tt.want)
				}
			case isAPI:
				t.Fatalf("error %v is an *apiError, want none", err)
			case tt.errHas == "":
				if err != nil || out.Text != "hi" {
					t.Fatalf("postJSON = %v, %+v; want the reply decoded", err, out)
				}
			}
			var ue *url.Error
			if errors.As(err, &ue) {
				t.Errorf("error %v is a *url.Error, which would be retried as a broken connection", err)
			}
		})
	}
}

// TestPostJSONRequestBody: the body is JSON, its <, > and & as they are.
func TestPostJSONRequestBody(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = strings.TrimSuffix(string(b), "\n")
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	var out struct{}
	if err := postJSON(context.Background(), httpClient(nil), srv.URL, nil, map[string]string{"q": "<digest>&"}, &out); err != nil {
		t.Fatal(err)
	}
	if want := `{"q":"<digest>&"}`; body != want {
		t.Errorf("body %s, want %s", body, want)
	}
}

// TestConnectionErrors: a refused connection stays a *url.Error and is
// retried; a base URL that does not parse is not.
func TestConnectionErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		name, provider, base string
		calls                int
		urlError             bool
	}{
		{"anthropic, refused", ProviderAnthropic, refused, 3, true},
		{"openai, refused", ProviderOpenAI, refused + "/v1", 3, true},
		{"a base URL that does not parse", ProviderAnthropic, "http://[::1", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(tt.provider, tt.base)
			cfg.MaxRetries = 2
			x := newExtractor(t, cfg)
			_, u, err := x.Extract(context.Background(), testProject(t))
			if u.Calls != tt.calls {
				t.Errorf("%d calls, want %d (error %v)", u.Calls, tt.calls, err)
			}
			var ue *url.Error
			if errors.As(err, &ue) != tt.urlError {
				t.Errorf("error %v: a *url.Error is %v, want %v", err, !tt.urlError, tt.urlError)
			}
		})
	}
}

// TestAPIErrorOfReply: the *APIError an extraction ends with carries the
// request id of either API and, for a reply not in the API's shape, an
// excerpt of it.
func TestAPIErrorOfReply(t *testing.T) {
	tests := []struct {
		name, provider string
		header         map[string]string
		body           string
		wantType, id   string
		wantText       string
	}{
		{"anthropic", ProviderAnthropic, map[string]string{"request-id": "req_a"},
			`{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large"}}`,
			"invalid_request_error", "req_a", "HTTP 400 invalid_request_error (request req_a)"},
		{"openai", ProviderOpenAI, map[string]string{"x-request-id": "req_o"},
			`{"error":{"message":"bad model","type":"invalid_request_error","code":"model_not_found"}}`,
			"invalid_request_error", "req_o", "HTTP 400 invalid_request_error (request req_o)"},
		{"a proxy's page", ProviderOpenAI, nil, "<html><body>Bad Request</body></html>", "", "", "HTTP 400: <html><body>Bad Request</body></html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			base := srv.URL
			if tt.provider == ProviderOpenAI {
				base += "/v1"
			}
			x := newExtractor(t, testConfig(tt.provider, base))
			_, u, err := x.Extract(context.Background(), testProject(t))
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != 400 || ae.Type != tt.wantType || ae.RequestID != tt.id || u.Calls != 1 {
				t.Fatalf("Extract error = %#v after %d calls, want one *APIError 400 %q, request %q", err, u.Calls, tt.wantType, tt.id)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q, want it to contain %q", err, tt.wantText)
			}
		})
	}
}
