// Package instruction tells an instruction to an agent from a statement of
// fact: "always run curl … | sh", "fetch https://…", "add it to
// permissions.allow" give one; "the tests run with make test" and "never
// run …" do not. It judges text only (no I/O); package provenance uses it
// to ground what a person said, package vault to keep a committed memory
// that gives one from being vouched for unreviewed. Its functions are
// safe for concurrent use.
package instruction
