package extract

import (
	"slices"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// typeCategories are the categories that make sense for each type: a
// user fact (who the user is, how they work in every project: it goes to
// the global user vault) is a preference; feedback (how the user wants
// the agent to work) a preference or a convention; project facts are
// decisions, conventions, dead ends and todos; references are references.
var typeCategories = map[memory.Type][]string{
	memory.TypeUser:      {CategoryPreference},
	memory.TypeFeedback:  {CategoryPreference, CategoryConvention},
	memory.TypeProject:   {CategoryDecision, CategoryConvention, CategoryDeadEnd, CategoryTodo},
	memory.TypeReference: {CategoryReference},
}

// categoryType is the type a category implies when the type given does
// not fit it.
var categoryType = map[string]memory.Type{
	CategoryDecision:   memory.TypeProject,
	CategoryConvention: memory.TypeProject,
	CategoryDeadEnd:    memory.TypeProject,
	CategoryTodo:       memory.TypeProject,
	CategoryPreference: memory.TypeFeedback,
	CategoryReference:  memory.TypeReference,
}

// fitType sets c's type to the one its category implies when the pair
// makes no sense (a fact typed user with the category decision is about
// the project, and must not reach the user vault that every project
// shares), and returns a note saying so; "" when the pair fits.
func fitType(c *Candidate) string {
	if slices.Contains(typeCategories[c.Type], c.Category) {
		return ""
	}
	t, ok := categoryType[c.Category]
	if !ok {
		return ""
	}
	note := "type " + string(c.Type) + " does not fit category " + c.Category + ": typed " + string(t)
	c.Type = t
	return note
}
