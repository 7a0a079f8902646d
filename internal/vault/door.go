package vault

// SharesLock reports whether v and o are serialized by one writer lock
// (the same lock file): a caller that holds one holds the other, and must
// use the Locked methods of both, since taking the lock again would wait
// for itself.
func (v *Vault) SharesLock(o *Vault) bool { return v.lockPath == o.lockPath }
