package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
)

// storedFiles returns the row, size and stamp of every file of a source,
// by name, from the source's manifest, or from its rows when the manifest
// is missing or damaged. Hashes are read by [DB.storedHashes] for the few
// files that need them.
func (db *DB) storedFiles(ctx context.Context, source string) (map[string]stored, error) {
	var data []byte
	err := db.sql.QueryRowContext(ctx, "SELECT data FROM manifests WHERE source = ?", source).Scan(&data)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if out, err := decodeManifest(data); err == nil {
		return out, nil
	}
	return db.storedRows(ctx, source) // the next sync that writes repairs it
}

// storedRows reads what storedFiles does from the rows themselves.
func (db *DB) storedRows(ctx context.Context, source string) (map[string]stored, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT name, id, size, mtime FROM memories WHERE source = ?", source)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]stored)
	for rows.Next() {
		var name string
		var s stored
		if err := rows.Scan(&name, &s.id, &s.size, &s.stamp); err != nil {
			return nil, err
		}
		out[name] = s
	}
	return out, rows.Err()
}

// storedHashes fills in the content hash of the given files.
func (db *DB) storedHashes(ctx context.Context, todo []change) error {
	var ids []int64
	at := make(map[int64]*stored)
	for i := range todo {
		if old := todo[i].old; old != nil {
			ids = append(ids, old.id)
			at[old.id] = old
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT id, hash FROM memories WHERE id IN ("+idList(ids)+")")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var hash string
		if err := rows.Scan(&id, &hash); err != nil {
			return err
		}
		at[id].hash = hash
	}
	return rows.Err()
}

// writeManifests rewrites the manifest of each source from its rows.
func writeManifests(ctx context.Context, tx *sql.Tx, sources []Source) error {
	for _, src := range sources {
		rows, err := tx.QueryContext(ctx, "SELECT name, id, size, mtime FROM memories WHERE source = ?", src.Name)
		if err != nil {
			return err
		}
		buf := []byte{}
		for rows.Next() {
			var name string
			var id, size, stamp int64
			if err := rows.Scan(&name, &id, &size, &stamp); err != nil {
				rows.Close()
				return err
			}
			buf = binary.AppendUvarint(buf, uint64(len(name)))
			buf = append(buf, name...)
			buf = binary.AppendVarint(buf, id)
			buf = binary.AppendVarint(buf, size)
			buf = binary.AppendVarint(buf, stamp)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO manifests (source, data) VALUES (?, ?)", src.Name, buf); err != nil {
			return fmt.Errorf("write manifest of %s: %w", src.Name, err)
		}
	}
	return nil
}

var errManifest = errors.New("damaged manifest")

// decodeManifest reads a manifest; nil data is a missing one.
func decodeManifest(data []byte) (map[string]stored, error) {
	if data == nil {
		return nil, errManifest
	}
	out := make(map[string]stored)
	for len(data) > 0 {
		n, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < n {
			return nil, errManifest
		}
		name := string(data[k : k+int(n)])
		data = data[k+int(n):]
		var s stored
		for _, dst := range []*int64{&s.id, &s.size, &s.stamp} {
			v, k := binary.Varint(data)
			if k <= 0 {
				return nil, errManifest
			}
			*dst, data = v, data[k:]
		}
		out[name] = s
	}
	return out, nil
}
