// SPDX-License-Identifier: GPL-2.0
/*
 * The spec fields, one table per mapping of each kind of spec file
 * (spec_table.h).  A table's order is the order check_keys() names its
 * keys in ("known: ...").  Fields the loaders read strictly (numbers, dir,
 * seq, accept, size, nr-param and size-param, which must name params) have
 * the grammar G_LOADER, so that each table names every field.  The JSON
 * Schemas (spec/schema/) must name the same fields: tests/schema-fields.py.
 */
#include <string.h>

#include "spec_load.h"
#include "spec_table.h"

#define REQ true
#define OPT false
#define TEXT(k, req, gr, ...) { .key = k, .required = req, .shape = F_TEXT, .g = gr, __VA_ARGS__ }
#define LIST(k, req, gr, ...) { .key = k, .required = req, .shape = F_LIST, .g = gr, __VA_ARGS__ }
#define ENTRIES(k, req, fields) \
	{ .key = k, .required = req, .shape = F_ENTRIES, .g = G_LOADER, .sub = fields }
#define KEYED(k, req, gk, gv) { .key = k, .required = req, .shape = F_KEYED, .g = gk, .value_g = gv }
#define END { .key = NULL }
/* only in a command built with the _IO* macros, and one of their fields */
#define IO .forms = FORM_IOC, .io_macro = true

const struct field version_fields[] = {
	TEXT("name", REQ, G_LOADER), TEXT("doc", REQ, G_DOC), END };
const struct field versions_top[] = {
	TEXT("doc", REQ, G_DOC), ENTRIES("versions", REQ, version_fields), END };

const struct field layout_fields[] = {
	TEXT("name", REQ, G_IDENT), TEXT("doc", REQ, G_DOC), TEXT("nr-bits", REQ, G_LOADER),
	TEXT("type-bits", REQ, G_LOADER), TEXT("size-bits", REQ, G_LOADER),
	TEXT("dir-bits", REQ, G_LOADER), TEXT("none", REQ, G_LOADER), TEXT("read", REQ, G_LOADER),
	TEXT("write", REQ, G_LOADER), LIST("arches", REQ, G_IDENT), LIST("headers", REQ, G_HEADER),
	TEXT("self-contained", OPT, G_LOADER), TEXT("xsize-bits", OPT, G_LOADER), END };
const struct field layouts_top[] = {
	TEXT("doc", OPT, G_DOC), ENTRIES("layouts", REQ, layout_fields), END };

const struct field abi_fields[] = {
	TEXT("name", REQ, G_ABI_NAME), TEXT("doc", REQ, G_DOC), TEXT("layout", REQ, G_IDENT),
	TEXT("arch", REQ, G_IDENT), TEXT("cc", REQ, G_PROGRAM), LIST("cflags", REQ, G_CFLAG),
	TEXT("variant-of", OPT, G_ABI_NAME), END };
const struct field abis_top[] = {
	TEXT("doc", OPT, G_DOC), ENTRIES("abis", REQ, abi_fields), END };

const struct field magic_fields[] = {
	TEXT("code", REQ, G_LOADER), TEXT("seq", REQ, G_LOADER), LIST("headers", REQ, G_FILE_REF),
	TEXT("doc", REQ, G_DOC), TEXT("contact", OPT, G_LINE), LIST("accept", OPT, G_LOADER),
	LIST("include-cell", OPT, G_LINE), LIST("seq-cell", OPT, G_LINE),
	TEXT("since", OPT, G_LOADER), TEXT("removed", OPT, G_LOADER),
	KEYED("doc-since", OPT, G_LOADER, G_DOC), END };
const struct field magic_top[] = {
	TEXT("doc", REQ, G_DOC), ENTRIES("magic-codes", REQ, magic_fields), END };

const struct field sizes_top[] = {
	TEXT("abi", REQ, G_ABI_NAME), TEXT("doc", REQ, G_DOC),
	KEYED("sizes", REQ, G_C_TYPE, G_UNLISTED), KEYED("kernel-sizes", OPT, G_C_TYPE, G_UNLISTED),
	LIST("absent", OPT, G_ABSENT),
	LIST("kernel-context", OPT, G_HEADER), END };

/* ------------------------------------------------------------ header specs */

const struct field typedef_fields[] = {
	TEXT("name", REQ, G_IDENT), TEXT("type", REQ, G_C_TYPE, .defer = DEFER_TYPE),
	TEXT("doc", REQ, G_DOC), END };

/* constants, and an enum's values */
const struct field named_value_fields[] = {
	TEXT("name", REQ, G_IDENT), TEXT("value", REQ, G_LOADER), TEXT("doc", REQ, G_DOC), END };

const struct field member_fields[] = {
	TEXT("name", REQ, G_IDENT), TEXT("type", REQ, G_C_TYPE), TEXT("len", OPT, G_LOADER),
	TEXT("pad", OPT, G_LOADER), TEXT("doc", OPT, G_DOC), END };

const struct field type_fields[] = {
	TEXT("name", REQ, G_IDENT), TEXT("kind", REQ, G_LOADER), TEXT("doc", REQ, G_DOC),
	TEXT("kernel-internal", OPT, G_LOADER), ENTRIES("members", OPT, member_fields),
	ENTRIES("values", OPT, named_value_fields), LIST("accept", OPT, G_LOADER),
	TEXT("accept-reason", OPT, G_LINE), END };

const struct field legacy_fields[] = {
	TEXT("written", REQ, G_C_SIZE, .defer = DEFER_WRITTEN), TEXT("passes", REQ, G_C_TYPE),
	TEXT("spell-as", REQ, G_C_TYPE, .defer = DEFER_SPELL_AS), TEXT("doc", REQ, G_DOC),
	TEXT("abi-break", OPT, G_LINE), END };

/* a variant gives an nr, or for a command spelled as another's name the name */
const struct field variant_fields[] = {
	LIST("abis", REQ, G_ABI_NAME), TEXT("nr", REQ, G_LOADER, .forms = FORM_IOC),
	TEXT("alias-of", REQ, G_IDENT, .forms = FORM_PLAIN), TEXT("doc", REQ, G_DOC), END };

const struct field command_fields[] = {
	TEXT("name", REQ, G_IDENT, .defer = DEFER_IDENT), TEXT("dir", REQ, G_LOADER, IO),
	TEXT("magic", REQ, G_LOADER, IO), TEXT("nr", REQ, G_LOADER, IO), TEXT("doc", REQ, G_DOC),
	TEXT("type", OPT, G_C_TYPE, IO, .defer = DEFER_TYPE),
	LIST("params", OPT, G_IDENT, IO, .defer = DEFER_IDENT), TEXT("nr-param", OPT, G_LOADER, IO),
	TEXT("nr-count", OPT, G_LOADER, IO), TEXT("size-param", OPT, G_LOADER, IO),
	TEXT("size-unit", OPT, G_C_TYPE, IO, .defer = DEFER_TYPE),
	LIST("unused-params", OPT, G_IDENT, IO, .defer = DEFER_IDENT),
	TEXT("size", OPT, G_LOADER, IO), TEXT("macro", OPT, G_LOADER, IO),
	{ .key = "legacy", .shape = F_MAPPING, .g = G_LOADER, .sub = legacy_fields, IO },
	TEXT("reserved", OPT, G_LOADER, IO), LIST("accept", OPT, G_LOADER),
	TEXT("alias-of", OPT, G_IDENT), ENTRIES("variants", OPT, variant_fields),
	TEXT("since", OPT, G_LOADER), TEXT("removed", OPT, G_LOADER),
	TEXT("abi-change", OPT, G_LINE), TEXT("accept-reason", OPT, G_LINE),
	TEXT("new", OPT, G_LOADER), LIST("evidence", OPT, G_LOADER),
	TEXT("kind", OPT, G_LOADER, .forms = FORM_IOC),
	TEXT("number", OPT, G_LOADER, .forms = FORM_PLAIN),
	TEXT("passes", OPT, G_C_TYPE, .forms = FORM_PLAIN, .defer = DEFER_TYPE), END };

const struct field header_top[] = {
	TEXT("header", REQ, G_HEADER), TEXT("doc", REQ, G_DOC), TEXT("arch", OPT, G_IDENT),
	LIST("includes", OPT, G_HEADER), TEXT("header-test", OPT, G_LOADER),
	TEXT("patch-prefix", OPT, G_LINE), ENTRIES("typedefs", OPT, typedef_fields),
	LIST("stub-includes", OPT, G_HEADER), LIST("defines", OPT, G_IDENT),
	TEXT("new", OPT, G_LOADER), TEXT("kernel-internal", OPT, G_LOADER),
	ENTRIES("constants", OPT, named_value_fields), ENTRIES("types", OPT, type_fields),
	ENTRIES("commands", REQ, command_fields), END };

const struct field *field_named(const struct field *table, const char *key)
{
	for (const struct field *f = table; f->key; f++)
		if (f->key[0] == key[0] && !strcmp(f->key, key))
			return f;
	return NULL;
}

/* ------------------------------------------------------------ kinds of spec file */

/* sizes/<abi>.yaml or sizes/<version>/<abi>.yaml */
static bool sizes_path_ok(const char *rel)
{
	const char *slash = strchr(rel + 6, '/');

	return !slash || (slash == strrchr(rel + 6, '/') && rel[6] != '/');
}

const struct spec_kind spec_kinds[] = {
	{ "layouts.yaml", layouts_top, load_layouts, NULL },
	{ "abis.yaml", abis_top, load_abis, NULL },
	{ "magic.yaml", magic_top, load_magic, NULL },
	{ "versions.yaml", versions_top, load_versions, NULL },
	{ "headers/", header_top, load_header, NULL },
	{ "sizes/", sizes_top, load_sizes, sizes_path_ok },
};
const size_t n_spec_kinds = sizeof(spec_kinds) / sizeof(*spec_kinds);

const struct spec_kind *spec_kind_of(const char *rel)
{
	for (size_t k = 0; k < n_spec_kinds; k++) {
		const char *p = spec_kinds[k].path;
		size_t n = strlen(p);

		if (p[n - 1] == '/' ? !strncmp(rel, p, n) : !strcmp(rel, p))
			return &spec_kinds[k];
	}
	return NULL;
}
