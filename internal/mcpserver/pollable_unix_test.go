//go:build unix

package mcpserver

import (
	"bytes"
	"cmp"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPollable: a pipe comes back as a reader that reads all that is
// written to it, through the poller (the descriptor non-blocking), and
// is blocking again once restored; a file and a reader that is not a
// file come back as they were.
func TestPollable(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in, restore := Pollable(r)
	if in == io.Reader(r) {
		t.Fatal("Pollable(pipe) returned the pipe as it was")
	}
	if nb, err := nonblocking(in.(*os.File)); err != nil || !nb {
		t.Fatalf("pollable pipe non-blocking = %v, %v; want true", nb, err)
	}
	want := strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", 5000)
	go func() {
		io.WriteString(w, want)
		w.Close()
	}()
	got, err := io.ReadAll(in)
	if err != nil || string(got) != want {
		t.Errorf("read %d bytes, %v; want the %d written", len(got), err, len(want))
	}
	restore()
	if nb, err := nonblocking(r); err != nil || nb {
		t.Errorf("restored pipe non-blocking = %v, %v; want false", nb, err)
	}

	file, err := os.CreateTemp(t.TempDir(), "requests")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if in, restore := Pollable(file); in != io.Reader(file) {
		t.Error("Pollable(regular file) changed it")
	} else {
		restore()
	}
	buf := &bytes.Buffer{}
	if in, restore := Pollable(buf); in != io.Reader(buf) {
		t.Error("Pollable(buffer) changed it")
	} else {
		restore()
	}
}

// nonblocking reports whether f's descriptor is in non-blocking mode,
// asked without Fd, which may change it.
func nonblocking(f *os.File) (nb bool, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	cerr := rc.Control(func(fd uintptr) {
		var flags int
		flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0)
		nb = flags&unix.O_NONBLOCK != 0
	})
	return nb, cmp.Or(cerr, err)
}
