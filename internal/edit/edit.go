package edit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// ErrChanged means the memory changed after the person was shown it: the
// edit is refused rather than losing the other change.
var ErrChanged = errors.New("changed while you were editing it")

// Apply replaces the memory called name in v with after, the whole file as
// a person saved it, edited from before, the file as they were shown it.
// It returns the memory as written.
//
// When after equals before nothing is written and the error is
// [vault.ErrNoChange]. An after that does not parse or validate (its name
// must stay name: renaming is [vault.Vault.Rename]'s) is refused with its
// [memory.ParseError]s. Otherwise its updated date becomes now, relative
// dates in its description and body are made absolute ([memory.AbsoluteDates]),
// a change of type without a new review date gets the new type's
// ([staleness.Retype]), and it is written through [vault.Vault.Update],
// which also refuses secrets. When the memory as it is under the lock is
// no longer before, the edit is refused with an error wrapping [ErrChanged].
func Apply(ctx context.Context, v *vault.Vault, name string, before, after []byte, now time.Time) (*memory.Memory, error) {
	if bytes.Equal(before, after) {
		return nil, vault.ErrNoChange
	}
	file := name + ".md"
	m, err := parse(file, after, file)
	if err != nil {
		return nil, err
	}
	return v.Update(ctx, name, func(cur *memory.Memory) error {
		// before is compared as a memory, not as bytes: one caller shows
		// the file's bytes, another the memory rendered, and either is
		// unchanged exactly when it renders as the memory now does.
		shown, err := memory.Parse(file, before)
		if err != nil || !bytes.Equal(cur.Render(), shown.Render()) {
			return fmt.Errorf("%s %w", file, ErrChanged)
		}
		Settle(cur, m, now)
		*cur = *m
		return nil
	})
}

// Draft returns d, a draft in the inbox, as a person edited it: after is
// the whole file as they saved it. It is parsed and validated as [Apply]
// does (a draft may take another name: it has no file in a vault yet) and
// settled by [Settle]; nothing is written, since a draft reaches its vault
// by its approval.
func Draft(d *memory.Memory, after []byte, now time.Time) (*memory.Memory, error) {
	m, err := parse(d.Name+".md", after, "")
	if err != nil {
		return nil, err
	}
	Settle(d, m, now)
	return m, nil
}

// Settle makes m, a person's or an agent's change of before, what every
// saved change is: its updated date is now, the relative dates in its
// description and body are made absolute ([memory.AbsoluteDates]), and a
// change of type without a new review date gets the new type's
// ([staleness.Retype]). before is not changed.
func Settle(before, m *memory.Memory, now time.Time) {
	now = now.UTC()
	m.Updated = now
	m.Description = memory.AbsoluteDates(m.Description, now)
	m.Body = memory.AbsoluteDates(m.Body, now)
	staleness.Retype(before, m, now)
}

// parse reads text, the memory file path as edited, and validates it
// against the file name want ("" to allow any name).
func parse(path string, text []byte, want string) (*memory.Memory, error) {
	m, err := memory.Parse(path, text)
	if err == nil {
		err = m.Validate(want)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}
