// SPDX-License-Identifier: GPL-2.0
/*
 * Spec files into registry structures.  This stage checks what one file can
 * tell on its own: keys, types, the shape of every value.  Rules that need
 * the whole registry (ranges on every layout, references, overlaps, numbers)
 * are the check stage's (check.c).  This file walks the spec directory and hands each file
 * to its loader (spec_tables.c, spec_header.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "spec_guard.h"

/* ------------------------------------------------------------ files */

/* rel: the file's path in a spec directory, which says its kind; file:
 * where it is, as messages name it. */
static void load_one(struct loader *L, const char *rel, const char *file, const char *data,
		     size_t len)
{
	static const char spdx[] = "# SPDX-License-Identifier:";
	/* The nodes of one file, gone once it is loaded: the registry keeps
	 * only their text, and the next file reuses the memory. */
	struct arena tree = { 0 };
	struct ynode *root;
	const struct spec_kind *kind = spec_kind_of(rel);

	if (len < sizeof(spdx) - 1 || memcmp(data, spdx, sizeof(spdx) - 1))
		LOAD_ERR(L, ((struct mark){ file, 1, 1 }), "spdx",
		    "a spec file starts with a '# SPDX-License-Identifier: ...' line");
	root = ytree_parse(&tree, L->a, L->d, file, data, len);
	if (!root)
		goto out;
	if (root->kind != Y_MAP) {
		LOAD_ERR(L, root->mark, "type", "a spec file is a YAML mapping");
		goto out;
	}
	if (kind)
		spec_check_grammar(L, kind->top, root);
	L->rel = rel;
	L->file = file;
	if (kind && (!kind->path_ok || kind->path_ok(rel)))
		kind->load(L, root);
	else
		LOAD_ERR(L, ((struct mark){ file, 1, 1 }), "reference",
		    "unknown spec file: expected layouts.yaml, abis.yaml, magic.yaml, versions.yaml, headers/**/*.yaml, sizes/<abi>.yaml or sizes/<version>/<abi>.yaml");
	L->about = (struct about){ NULL, NULL };
	L->rel = L->file = NULL;
out:
	arena_release(&tree);
}

/*
 * The known version a sizes/<V>/ directory names: its index, or 0 (the
 * oldest's sizes are sizes/<abi>.yaml) after reporting the file.
 */
static size_t sizes_version(struct loader *L, const struct sizes_file *sf)
{
	struct registry *reg = L->reg;
	struct mark m = { sf->file, 1, 1 };
	struct strbuf known = { 0 };
	size_t v;

	for (v = 1; v < reg->n_versions; v++)
		if (!strcmp(reg->versions[v].name, sf->version))
			return v;
	if (reg->n_versions && !strcmp(reg->versions[0].name, sf->version)) {
		LOAD_ERR(L, m, "reference",
		    "the sizes of %s, the oldest known version, belong in %s/sizes/%s.yaml, not in sizes/%s/",
		    sf->version, reg->spec_dir, sf->abi_name, sf->version);
		return 0;
	}
	for (size_t i = 1; i < reg->n_versions; i++)
		sb_printf(&known, "%s%s", i > 1 ? ", " : "", reg->versions[i].name);
	LOAD_ERR(L, m, "reference",
	    "sizes/%s/ names no known version after the oldest of %s/versions.yaml (known: %s)",
	    sf->version, reg->spec_dir, known.len ? known.buf : "none");
	sb_release(&known);
	return 0;
}

/* Attach each sizes file to its ABI and version. */
static void link_sizes(struct loader *L)
{
	struct registry *reg = L->reg;

	if (reg->n_versions)
		for (size_t j = 0; j < reg->n_abis; j++)
			reg->abis[j].by_version = arena_alloc(L->a, reg->n_versions * sizeof(struct abi_sizes));
	for (size_t i = 0; i < L->n_sizes; i++) {
		struct sizes_file *sf = &L->sizes[i];
		struct abi *abi = NULL;
		size_t v = 0;

		if (sf->version && !(v = sizes_version(L, sf)))
			continue;
		for (size_t j = 0; j < reg->n_abis; j++)
			if (!strcmp(reg->abis[j].name, sf->abi_name))
				abi = &reg->abis[j];
		if (!abi) {
			LOAD_ERR(L, sf->mark, "reference", "sizes for an unknown ABI '%s'", sf->abi_name);
			continue;
		}
		if (v == 0) {
			abi->sizes = sf->sizes;
			abi->n_sizes = sf->n;
			abi->ksizes = sf->ksizes;
			abi->n_ksizes = sf->n_ksizes;
			abi->absent = sf->absent;
			abi->n_absent = sf->n_absent;
			abi->kcontext = sf->kcontext;
			abi->n_kcontext = sf->n_kcontext;
			abi->sizes_file = sf->file;
		}
		if (abi->by_version)
			abi->by_version[v] = (struct abi_sizes){ sf->sizes, sf->n, sf->ksizes,
								 sf->n_ksizes, sf->absent,
								 sf->n_absent, sf->kcontext, sf->n_kcontext,
								 sf->file, sf->mark };
	}
	free(L->sizes);
}

static void loader_init(struct loader *L, struct registry *reg, const char *dir)
{
	size_t n = strlen(dir);

	memset(reg, 0, sizeof(*reg));
	while (n > 1 && dir[n - 1] == '/')
		n--;
	reg->spec_dir = arena_strndup(&reg->arena, dir, n);
	memset(L, 0, sizeof(*L));
	L->reg = reg;
	L->a = &reg->arena;
	L->d = &reg->diags;
}

static void loader_finish(struct loader *L)
{
	struct registry *reg = L->reg;
	static const char *const required[] = { "layouts.yaml", "abis.yaml", "magic.yaml" };
	bool have[3] = { reg->n_layouts > 0, reg->n_abis > 0, reg->n_rows > 0 };

	/* reg->headers moved as it grew: point every command at its header now */
	for (size_t h = 0; h < reg->n_headers; h++)
		for (size_t i = 0; i < reg->headers[h].n_commands; i++)
			reg->headers[h].commands[i].header = &reg->headers[h];
	/* Only when nothing else is wrong: a broken file explains a missing table. */
	if (L->d->errors == 0)
		for (int i = 0; i < 3; i++)
			if (!have[i])
				LOAD_ERR(L, ((struct mark){ arena_printf(L->a, "%s/%s", reg->spec_dir, required[i]), 1, 1 }),
				    "missing-key", "the registry has no %s entries (is %s a spec directory?)",
				    required[i], reg->spec_dir);
	link_sizes(L);
	for (size_t g = 0; g < G_GRAMMARS; g++)
		nameset_release(&L->seen[g]);
}

void registry_load_buffers(struct registry *reg, const char *dir, size_t n,
			   const char *const *names, const char *const *data, const size_t *lens)
{
	struct loader L;

	loader_init(&L, reg, dir);
	for (size_t i = 0; i < n; i++)
		load_one(&L, names[i], arena_printf(L.a, "%s/%s", reg->spec_dir, names[i]), data[i],
			 lens[i]);
	loader_finish(&L);
}

void registry_load_sizes_files(struct registry *reg, size_t n, const char *const *paths)
{
	struct loader L;
	size_t cap = 0;

	loader_init(&L, reg, ".");
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/');
		size_t len;
		char *data = read_file(paths[i], &len);

		if (!data) {
			LOAD_ERR((&L), ((struct mark){ paths[i], 1, 1 }), "syntax", "cannot read: %s",
			    strerror(errno));
			continue;
		}
		load_one(&L, arena_printf(L.a, "sizes/%s", base ? base + 1 : paths[i]), paths[i], data,
			 len);
		free(data);
	}
	for (size_t i = 0; i < L.n_sizes; i++) {
		const struct sizes_file *sf = &L.sizes[i];

		*(struct abi *)arena_slot(L.a, &reg->abis, &cap, reg->n_abis++, sizeof(*reg->abis)) =
			(struct abi){ .name = sf->abi_name, .sizes = sf->sizes, .n_sizes = sf->n,
				      .ksizes = sf->ksizes, .n_ksizes = sf->n_ksizes,
				      .absent = sf->absent, .n_absent = sf->n_absent,
				      .kcontext = sf->kcontext, .n_kcontext = sf->n_kcontext,
				      .sizes_file = sf->file, .mark = sf->mark };
	}
	free(L.sizes);
	for (size_t g = 0; g < G_GRAMMARS; g++)
		nameset_release(&L.seen[g]);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void registry_load(struct registry *reg, const char *dir)
{
	struct loader L;
	struct pathlist files = { 0 };
	struct stat st;

	loader_init(&L, reg, dir);
	if (stat(reg->spec_dir, &st) || !S_ISDIR(st.st_mode)) {
		bool exists = errno != ENOENT && access(reg->spec_dir, F_OK) == 0;

		LOAD_ERR((&L), ((struct mark){ reg->spec_dir, 1, 1 }), "syntax", "not a spec directory: %s",
		    exists ? "not a directory" : strerror(ENOENT));
		return;
	}
	/* sorted, so the order of files on disk never shows in the output */
	spec_walk(&L, reg->spec_dir, &files);
	if (files.n)
		qsort(files.v, files.n, sizeof(*files.v), path_cmp);
	for (size_t i = 0; i < files.n; i++) {
		char *path = arena_printf(L.a, "%s/%s", reg->spec_dir, files.v[i]);
		size_t len;
		unsigned long long dev = 0, ino = 0;
		char *data = read_file_id(path, &len, &dev, &ino);

		if (!data) {
			LOAD_ERR((&L), ((struct mark){ path, 1, 1 }), "syntax", "cannot read: %s",
			    strerror(errno));
			continue;
		}
		*(struct input_file *)arena_slot(L.a, &reg->inputs, &reg->cap_inputs, reg->n_inputs++,
					      sizeof(*reg->inputs)) = (struct input_file){ dev, ino };
		load_one(&L, files.v[i], path, data, len);
		free(data);
	}
	free(files.v);
	loader_finish(&L);
}
