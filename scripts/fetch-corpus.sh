#!/usr/bin/env bash
# Fetches the corpus files that may not be committed (GPL projects) into Tests/Corpus/fetched/, pinned by commit and
# checked by SHA-256; CorpusTests.fetchedFileImportsAsTheReferenceSays runs on them when present. Their expected
# outcomes are in Tests/Corpus/fetched-manifest.tsv (scripts/corpus-reference.py).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=Tests/Corpus/fetched
# folder  repo  commit  path  sha256   (licence: pytrainer is GPL-2.0)
files=(
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/imports/sample.fit c8595afab6c117e07b2cc956417f92a11934609b5e565defde1b67118c07cd2a"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/imports/sample.tcx 17c4ee27ef74cd6475c7df6cb76684c17f375de198feda0127d6e42050b8b82a"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/lib/gpxplus_sample.gpx 65bb30fb2b122db59bcf8ebb218db71fed1cf7a6605a97c0871afcbfd218df68"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/lib/gpxplus_sample_old.gpx 69b87b9b7a7450c4700751dcbb68a6425f429c4a090dbf3154666178b62dfeb5"
)
for line in "${files[@]}"; do
  read -r folder repo commit path sha <<<"$line"
  mkdir -p "$dest/$folder"
  out="$dest/$folder/$(basename "$path")"
  if [ ! -f "$out" ] || ! echo "$sha  $out" | sha256sum -c --quiet - 2>/dev/null; then
    curl -fsSL "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$out.part"
    echo "$sha  $out.part" | sha256sum -c --quiet - || { echo "fetch-corpus: $path: checksum differs" >&2; rm -f "$out.part"; exit 1; }
    mv "$out.part" "$out"
  fi
done
echo "fetch-corpus: ${#files[@]} files in $dest"
