package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type forgetInput struct {
	Name         string `json:"name" jsonschema:"the memory to forget"`
	Reason       string `json:"reason" jsonschema:"why it no longer holds; recorded with it for the person who reviews"`
	SupersededBy string `json:"superseded_by,omitempty" jsonschema:"the memory that replaces it: the old one is then kept, marked superseded, instead of moved out"`
}

type forgetOutput struct {
	Name    string `json:"name"`
	Vault   string `json:"vault"`
	Action  string `json:"action"` // moved_out or superseded
	MovedTo string `json:"moved_to,omitempty"`
	Message string `json:"message"`
}

const forgetDescription = `Forget a memory that turned out wrong or no longer holds, giving the reason. Nothing is destroyed: the memory file moves out of the vault into mnemo's state folder (forgotten/), with the reason recorded, so a person can restore it; it leaves MEMORY.md and recall at once. With superseded_by (the memory that replaces it) it stays in the vault instead, marked superseded and ranked low. To correct a memory rather than drop it, use update.`

func (s *Server) addForget() {
	addTool(s.mcp, &mcp.Tool{
		Name:         "forget",
		Description:  forgetDescription,
		Annotations:  writes("Forget a memory", true, true),
		InputSchema:  schemaFor[forgetInput](nil),
		OutputSchema: schemaFor[forgetOutput](nil),
	}, s.forget)
}

func (s *Server) forget(ctx context.Context, _ *mcp.CallToolRequest, in forgetInput) (*mcp.CallToolResult, forgetOutput, error) {
	// The reason is recorded (why, the log, forgotten/): a secret in it never is.
	reason := redact.String(strings.Join(strings.Fields(in.Reason), " "))
	if reason == "" {
		return nil, forgetOutput{}, errors.New("forget needs a reason: it is recorded for the person who reviews what was forgotten")
	}
	f, err := s.find(in.Name)
	if err != nil {
		return nil, forgetOutput{}, err
	}
	out := forgetOutput{Name: f.m.Name, Vault: f.where}
	if in.SupersededBy != "" {
		by, err := s.find(in.SupersededBy)
		if err != nil {
			return nil, out, fmt.Errorf("superseded_by: %w", err)
		}
		if by.m.Name == f.m.Name {
			return nil, out, errors.New("superseded_by names the memory itself")
		}
		if err := s.supersede(ctx, f, by.m.Name, reason); err != nil {
			return nil, out, err
		}
		out.Action = "superseded"
		out.Message = fmt.Sprintf("marked %s superseded by %s: it stays in the %s vault, ranked low, out of MEMORY.md", f.m.Name, by.m.Name, f.where)
	} else {
		dest, err := s.moveOut(ctx, f, reason, "mcp forget")
		if err != nil {
			return nil, out, err
		}
		out.Action, out.MovedTo = "moved_out", dest
		out.Message = fmt.Sprintf("forgot %s: moved out of the %s vault to %s (a person can move it back)", f.m.Name, f.where, dest)
	}
	s.synced(ctx)
	return text("%s", out.Message), out, nil
}

// supersede marks a memory superseded by another, keeping it in its vault.
func (s *Server) supersede(ctx context.Context, f found, by, reason string) error {
	if _, err := f.v.Update(ctx, f.m.Name, func(m *memory.Memory) error {
		m.Status, m.SupersededBy, m.Updated = memory.StatusSuperseded, by, s.cfg.Now()
		m.Why = strings.TrimSpace(m.Why + " Superseded by " + by + ": " + reason)
		return nil
	}); err != nil {
		return err
	}
	s.cfg.Log.Info("forget: superseded", "name", f.m.Name, "vault", f.where, "by", by, "reason", reason)
	return nil
}

// moveOut moves a memory file out of its vault into the state folder's
// forgotten/ and records why and by what (source): see [vault.Vault.MoveOut].
// It returns where the file went.
func (s *Server) moveOut(ctx context.Context, f found, reason, source string) (string, error) {
	r := vault.Removal{Vault: f.where, Reason: reason, Source: source, At: s.cfg.Now()}
	dests, err := f.v.MoveOut(ctx, r, f.m.Name)
	if err != nil {
		return "", fmt.Errorf("mcpserver: forget %s: %w", f.m.Name, err)
	}
	s.cfg.Log.Info("forget: moved out of the vault", "name", f.m.Name, "vault", f.where, "to", dests[0], "reason", reason, "by", source)
	return dests[0], nil
}
