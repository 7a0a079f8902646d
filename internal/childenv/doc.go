// Package childenv decides which environment variables a process mnemo
// starts (the detached worker, the headless claude child) inherits: what
// marks the parent as running inside an agent session goes, what says how
// to reach and authenticate with the model stays. One list for every
// child, so that the worker a hook starts can still run the claude child
// with the user's Bedrock, Vertex or OAuth setup.
package childenv
