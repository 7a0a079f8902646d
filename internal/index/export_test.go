package index

// ResidentAt returns the generation of the rows db keeps (see
// [DB.KeepResident]), 0 when none, and whether it is reading them now.
func (db *DB) ResidentAt() (gen int64, loading bool) {
	db.res.mu.Lock()
	defer db.res.mu.Unlock()
	if db.res.docs == nil {
		return 0, db.res.loading
	}
	return db.res.gen, db.res.loading
}
