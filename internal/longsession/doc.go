// Package longsession writes a long, generated Claude Code session for
// the benchmarks of what reads one whole (the heuristic extractor, the
// worker's job): many short turns whose prompts now and then state a rule,
// ask for something to be remembered or report a problem, tool calls with
// large outputs, commands that fail before another works, and TODOs left
// in the assistant's words. The same size and seed give the same bytes.
package longsession
