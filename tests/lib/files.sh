# shellcheck shell=bash
# File lists that survive any name: NUL-separated throughout, so a name with
# a space, a quote or a newline stays one name (a word-split `find` turned
# "a b.yaml" into two names that do not exist, and the file was skipped).

# tree_sums DIR: "MD5  ./PATH" of every file below DIR, sorted by path.
tree_sums() {
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}

# copy_into DEST: copy each NUL-terminated relative path read from standard
# input to DEST/PATH, making its directories.
copy_into() {
	local f
	while IFS= read -r -d '' f; do
		mkdir -p "$1/$(dirname "$f")" && cp "$f" "$1/$f"
	done
}
