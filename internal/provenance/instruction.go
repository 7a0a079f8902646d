package provenance

import "github.com/mnemo-dev/mnemo/internal/instruction"

// Kinds of instruction [Instruction] recognises (package instruction).
const (
	PipeToShell      = instruction.PipeToShell
	RunCommand       = instruction.RunCommand
	FetchURL         = instruction.FetchURL
	ChangePermission = instruction.ChangePermission
)

// Instruction returns the kind of instruction text gives an agent, or ""
// ([instruction.Kind]).
func Instruction(text string) string { return instruction.Kind(text) }
