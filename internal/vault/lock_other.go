//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package vault

import "context"

// lockFolder is not available here: the vault is locked through its lock
// file in the state folder. (On Windows a folder that holds an open file
// cannot be deleted, so that lock cannot vanish under its holder either.)
func lockFolder(context.Context, string) (func(), error) { return nil, errNoFolderLock }
