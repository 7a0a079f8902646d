package web

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
)

// TestServe starts the page on a real loopback listener, opens the
// printed URL as a browser would (the token becomes a cookie), and stops
// it by cancelling the context, as Ctrl-C does.
func TestServe(t *testing.T) {
	fx := newFixture(t)
	srv, err := Listen(fx.srv.cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "prices-are-strings") {
		t.Errorf("GET %s: %d, want 200 and the inbox:\n%.300s", srv.URL(), resp.StatusCode, body)
	}
	if resp.Request.URL.RawQuery != "" {
		t.Errorf("the page stayed at %s: the token should leave the address", resp.Request.URL)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after cancel: %v", err)
	}
	if _, err := http.Get(srv.URL()); err == nil {
		t.Errorf("the page still answers after it stopped")
	}
}

// TestTwoPages: two review pages open at once (two projects, two ports)
// in one browser each keep their login: a browser keeps cookies by host,
// not port, so one page's login must not replace the other's.
func TestTwoPages(t *testing.T) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	var srvs []*Server
	for range 2 {
		fx := newFixture(t)
		srv, err := Listen(fx.srv.cfg, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go srv.Serve(t.Context())
		srvs = append(srvs, srv)
	}
	for _, srv := range srvs { // log in to each, the first first
		resp, err := c.Get(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for i, srv := range srvs {
		page := strings.TrimSuffix(srv.URL()[:strings.Index(srv.URL(), "?")], "/") + "/memories"
		resp, err := c.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("page %d after both logins: GET %s = %d, want 200", i+1, page, resp.StatusCode)
		}
	}
}
