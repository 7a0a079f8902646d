package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type addOptions struct {
	typ, name, description, why string
	confidence                  float64
	files, tags                 []string
	user, force                 bool
	body                        []string
}

func newAddCmd(f *Factory) *cobra.Command {
	opts := addOptions{confidence: memory.DefaultConfidence}
	cmd := &cobra.Command{
		Use:   "add [BODY... | -]",
		Short: "Write a memory by hand",
		Long: `Write one memory: one fact, in one file of the vault.

The body comes from the arguments, from stdin when the only argument is '-',
or from $EDITOR when there are none (the editor gets the whole file, header
included). The description is the recall key: say what the memory helps
with, in one line of at most 150 characters. Without --name, the name is
made from the description.

A memory that already says the fact (the same values: numbers, hosts,
versions, environments, days…, in nearly the same words), that the new one
only adds detail to, or that it contradicts, is named and nothing is
written; --force writes the new one beside it. Facts that differ in a value
are different facts and are written side by side.

Relative dates ("next month", "by Friday") are made absolute against today,
so the memory still means the same thing when it is read later. Each --file
anchors the memory to that file's content and the git HEAD, so mnemo can
tell when the code it describes has changed.`,
		Example: `  mnemo add --type feedback --description "Never state a figure without verifying it" \
      "The user corrected two guessed numbers; always cite where a figure comes from."
  git log -1 --format=%B | mnemo add --description "Why the retry loop exists" -
  mnemo add --type project --file internal/auth/service.go --description "Auth lives in internal/auth"
  mnemo add --user --type user --description "Prefers table-driven tests" "Write Go tests as tables."`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.body = args
			if !memory.Type(opts.typ).Valid() {
				return usageErrorf("--type %q is not one of user, feedback, project, reference", opts.typ)
			}
			if opts.confidence < 0 || opts.confidence > 1 {
				return usageErrorf("--confidence %v is not between 0 and 1", opts.confidence)
			}
			if opts.name != "" && !memory.ValidName(opts.name) {
				return usageErrorf("--name %q is not a name: use lowercase letters, digits and '-', at most 64", opts.name)
			}
			return runAdd(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.typ, "type", "t", "project", "`TYPE` of memory: user, feedback, project or reference")
	fl.StringVarP(&opts.name, "name", "n", "", "the memory's `NAME` (a slug; made from the description when empty)")
	fl.StringVarP(&opts.description, "description", "d", "", "one line saying what the memory helps with: the recall key")
	fl.StringVar(&opts.why, "why", "", "why this is worth remembering (provenance)")
	fl.Float64Var(&opts.confidence, "confidence", memory.DefaultConfidence, "how sure you are, 0 to 1")
	fl.StringArrayVarP(&opts.files, "file", "f", nil, "anchor the memory to `PATH` (repeatable)")
	fl.StringArrayVar(&opts.tags, "tag", nil, "add a `TAG` (repeatable)")
	fl.BoolVar(&opts.user, "user", false, "write to the user vault (~/.mnemo/user), not the project's")
	fl.BoolVar(&opts.force, "force", false, "write it even when a memory of that name, or one saying the same, exists: beside it (NAME-2), never over it")
	return cmd
}

func runAdd(ctx context.Context, f *Factory, opts addOptions) error {
	v, err := f.Vault(opts.user)
	if err != nil {
		return err
	}
	now := f.Now().UTC()
	m := memory.New(memory.Header{
		Name:        opts.name,
		Description: strings.TrimSpace(opts.description),
		Type:        memory.Type(opts.typ),
		Created:     now,
		Updated:     now,
		Source:      "manual",
		Why:         opts.why,
		Confidence:  opts.confidence,
		ReviewBy:    staleness.ReviewBy(memory.Type(opts.typ), now),
		Tags:        opts.tags,
	}, "")
	switch {
	case len(opts.body) == 1 && opts.body[0] == "-":
		data, err := io.ReadAll(io.LimitReader(f.IO.In, memory.MaxFileSize+1)) // more is refused below
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		if err := memory.CheckSize("stdin", "body", len(data)); err != nil {
			return err
		}
		m.Body = string(data)
	case len(opts.body) > 0:
		m.Body = strings.Join(opts.body, " ") + "\n"
	default:
		if m, err = editNew(ctx, f, m); err != nil {
			return err
		}
	}
	if strings.TrimSpace(m.Body) == "" {
		return usageErrorf("the memory has no body: pass it as arguments, '-' for stdin, or write it in $EDITOR")
	}
	if m.Description == "" {
		return usageErrorf("--description is required: one line saying what the memory helps with")
	}
	m.Description = memory.AbsoluteDates(m.Description, now)
	m.Body = memory.AbsoluteDates(m.Body, now)
	if m.Name == "" {
		// A secret in the description must not become the file's name, nor
		// reach the message that names the file.
		if err := vault.Secrets(m); err != nil {
			return err
		}
		m.Name = memory.Slug(m.Description)
	}
	if m.Anchors, err = anchorsFor(ctx, f, opts.files, m.Body); err != nil {
		return err
	}
	if opts.force {
		_, err = v.CreateFree(ctx, m)
	} else if err = refuseNear(ctx, f, m); err == nil {
		err = v.Create(ctx, m)
	}
	if err != nil && !vault.Saved(err) {
		if errors.Is(err, vault.ErrExists) {
			return withHint(err, "pass --name to choose another name, or --force to write it beside the other as "+v.FreeName(m.Name))
		}
		return err
	}
	fmt.Fprintf(f.IO.Out, "%s\n", displayPath(f, v.Path(m.Name)))
	return err // nil, or: saved, but MEMORY.md is behind (a warning)
}

// nearReasons say how a memory stands to the one being added.
var nearReasons = map[consolidate.Action]string{
	consolidate.Duplicate:     "it already says this",
	consolidate.Extended:      "this only adds detail to it",
	consolidate.Contradiction: "it contradicts it",
}

// refuseNear fails when a memory of the vaults already says m's fact,
// would be extended by it, or contradicts it, naming that memory.
func refuseNear(ctx context.Context, f *Factory, m *memory.Memory) error {
	c, done, err := openConsolidator(ctx, f, "", f.Log(false))
	if err != nil {
		return err
	}
	defer done()
	o, err := c.Near(ctx, m)
	if err != nil || o.Action == "" {
		return err
	}
	v, err := f.Vault(o.Where == "user")
	if err != nil {
		return err
	}
	err = fmt.Errorf("similar to %s (%s): %s; not written", o.Existing, displayPath(f, v.Path(o.Existing)), nearReasons[o.Action])
	return withHint(err, fmt.Sprintf("pass --force to write it beside it, or change it with 'mnemo edit %s'", o.Existing))
}

// editNew lets the user write a new memory in $EDITOR, starting from m.
func editNew(ctx context.Context, f *Factory, m *memory.Memory) (*memory.Memory, error) {
	if m.Name == "" {
		m.Name = "new-memory"
	}
	m.Body = "\n"
	text, err := runEditor(ctx, f, m.Name, m.Render())
	if err != nil {
		return nil, err
	}
	edited, err := memory.Parse(m.Name+".md", text)
	if err != nil {
		return nil, keepEdit(f, text, err)
	}
	if err := edited.Validate(""); err != nil {
		return nil, keepEdit(f, text, err)
	}
	return edited, nil
}

var errNoEditor = errors.New("$EDITOR is not set")

// anchorsFor anchors a memory to the files given with --file, which must
// exist, and to the paths its body names that exist in the repository.
func anchorsFor(ctx context.Context, f *Factory, files []string, body string) (memory.Anchors, error) {
	p, err := f.Project()
	if err != nil {
		return memory.Anchors{}, err
	}
	wd, err := f.Getwd()
	if err != nil {
		return memory.Anchors{}, err
	}
	files = append(files, staleness.BodyFiles(p.Root, body)...)
	if len(files) == 0 {
		return memory.Anchors{}, nil
	}
	return staleness.Anchor(p.Root, wd, p.Head(ctx), files)
}
