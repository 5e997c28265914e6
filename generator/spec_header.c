// SPDX-License-Identifier: GPL-2.0
/* Header specs (headers/<path>.yaml): the commands of one UAPI header. */
#include <string.h>

#include "spec_load.h"

/*
 * A command the header spells as a plain number (asm-generic/ioctls.h's
 * #define TCGETS 0x5401): name, number, doc, and optionally the type it
 * passes, as documentation.  Or spelled as another command's name
 * (sockios.h's #define SIOCINQ FIONREAD): alias-of instead of number, and
 * variants where the name differs per ABI.  None of the _IO* fields may
 * stand beside either.
 */
static void load_plain(struct loader *L, struct header *h, const struct ynode *m)
{
	const char *known =
		"name, number or alias-of, variants (with alias-of), passes, since, removed, abi-change, evidence, accept, accept-reason, new, doc";
	struct command *c = &h->commands[h->n_commands];
	const struct ynode *n;
	bool ok = true;
	uint64_t v;

	for (size_t i = 0; i < ymap_len(m); i++) {
		const struct ynode *k = ymap_key(m, i);
		const struct field *f = field_named(command_fields, k->str);

		if (f && f->io_macro) {
			LOAD_ERR(L, k->mark, "unknown-key",
			    "'%s' cannot stand beside '%s': a command spelled as a plain number or as another's name is not built with the _IO* macros (known: %s)",
			    k->str, ymap_get(m, "number") ? "number" : "alias-of", known);
			ok = false;
			continue;
		}
		if (!f || !field_in_form(f, FORM_PLAIN)) {
			LOAD_ERR(L, k->mark, "unknown-key",
			    "unknown key '%s' in a command spelled as a plain number or as another's name (known: %s)",
			    k->str, known);
			ok = false;
		}
	}
	for (const struct field *f = command_fields; f->key; f++)
		if (f->required && field_in_form(f, FORM_PLAIN) && !ymap_get(m, f->key)) {
			LOAD_ERR(L, m->mark, "missing-key", "a command has no '%s'", f->key);
			ok = false;
		}
	memset(c, 0, sizeof(*c));
	c->mark = m->mark;
	c->header = h;
	c->nr_count = 1;
	c->dir = DIR_NONE;
	c->plain = true;
	c->name = get_str(L, m, "name", NULL);
	c->doc = get_str(L, m, "doc", NULL);
	if (c->name && !is_identifier(c->name)) {
		LOAD_ERR(L, ymap_get(m, "name")->mark, "type", "name '%s' is not a C identifier", c->name);
		ok = false;
	}
	if ((n = ymap_get(m, "number"))) {
		c->number_mark = n->mark;
		if (node_uint(L, n, "number", UINT32_MAX, &v)) {
			c->number = (uint32_t)v;
			c->number_text = n->str;
		} else {
			ok = false;
		}
		for (size_t i = 0; i < ymap_len(m); i++) {
			const struct ynode *k = ymap_key(m, i);

			if (strcmp(k->str, "alias-of") && strcmp(k->str, "variants"))
				continue;
			LOAD_ERR(L, k->mark, "unknown-key",
			    "a command spelled as a plain number has its own number: it takes no '%s' (a name the header defines as another's is written with alias-of alone)",
			    k->str);
			ok = false;
		}
	} else {
		/* the grammar check says when it is no identifier; check_names.c finds the target */
		c->by_name = true;
		c->alias_of = get_str(L, m, "alias-of", &c->alias_mark);
		if (!c->alias_of || !is_identifier(c->alias_of))
			ok = false;
		else if (c->name && !strcmp(c->alias_of, c->name)) {
			LOAD_ERR(L, c->alias_mark, "alias", "'alias-of': %s cannot be an alias of itself",
			    c->name);
			ok = false;
		}
		load_variants(L, c, m);
	}
	if (ymap_get(m, "passes")) {
		c->passes = get_str(L, m, "passes", &c->type_mark);
		if (c->passes && (is_sizeof(c->passes) || is_number(c->passes))) {
			LOAD_ERR(L, c->type_mark, "sizeof-argument",
			    "'passes' is the C type the command passes, not '%s'", c->passes);
			ok = false;
		}
		ok &= c->passes != NULL;
	}
	get_lifetime(L, m, &c->life);	/* a bad one is reported and left out */
	get_abi_change(L, c, m);
	ok &= load_evidence(L, c, m);
	c->accept = get_accept(L, m, ACCEPT_SHARED_NUMBER | ACCEPT_REUSED_NUMBER);
	get_new_and_reason(L, c, m);
	if (ok && c->name && c->doc)
		h->n_commands++;
}

static bool is_unused_param(const struct command *c, const char *p)
{
	for (size_t i = 0; i < c->n_unused_params; i++)
		if (!strcmp(c->unused_params[i], p))
			return true;
	return false;
}

static void load_command(struct loader *L, struct header *h, const struct ynode *m)
{
	struct command *c = &h->commands[h->n_commands];
	const char *dir, *macro, *kind;
	struct mark dir_mark, mm, pm;
	const struct ynode *n;
	bool ok = true;

	/* plain: a number, or another command's name without the _IO* fields */
	if (m->kind == Y_MAP && (ymap_get(m, "number") ||
				 (ymap_get(m, "alias-of") && !ymap_get(m, "dir") &&
				  !ymap_get(m, "magic") && !ymap_get(m, "nr")))) {
		load_plain(L, h, m);
		return;
	}
	if (!check_keys(L, m, "a command", command_fields, FORM_IOC))
		return;
	memset(c, 0, sizeof(*c));
	c->mark = m->mark;
	c->header = h;
	c->nr_count = 1;
	c->name = get_str(L, m, "name", NULL);
	c->doc = get_str(L, m, "doc", NULL);
	if (c->name && !is_identifier(c->name)) {
		LOAD_ERR(L, ymap_get(m, "name")->mark, "type", "name '%s' is not a C identifier", c->name);
		ok = false;
	}
	dir = get_str(L, m, "dir", &dir_mark);
	if (dir && !parse_dir(dir, &c->dir)) {
		LOAD_ERR(L, dir_mark, "type", "dir '%s' must be none, read, write or read-write", dir);
		ok = false;
	}
	ok &= get_magic(L, m, "magic", &c->magic, &c->magic_text, &c->magic_mark);
	if ((n = ymap_get(m, "nr"))) {
		uint64_t v;

		c->nr_mark = n->mark;
		if (node_uint(L, n, "nr", UINT32_MAX, &v)) {
			c->nr = (unsigned int)v;
			c->nr_text = n->str;
		} else {
			ok = false;
		}
	}
	if (ymap_get(m, "type")) {
		c->type = get_str(L, m, "type", &c->type_mark);
		if (c->type && (is_sizeof(c->type) || is_number(c->type))) {
			LOAD_ERR(L, c->type_mark, "sizeof-argument",
			    "type '%s' is a size, not a type: the macros take the type itself; a number kept for ABI is a legacy entry",
			    c->type);
			ok = false;
		}
	}
	c->params = get_strlist(L, m, "params", &c->n_params, NULL);
	for (size_t i = 0; i < c->n_params; i++)
		if (!is_identifier(c->params[i]))
			LOAD_ERR(L, ymap_get(m, "params")->mark, "type", "parameter '%s' is not a C identifier",
			    c->params[i]);
	if (ymap_get(m, "nr-param"))
		c->nr_param = get_str(L, m, "nr-param", &pm);
	if (ymap_get(m, "nr-count")) {
		if (!c->nr_param)
			LOAD_ERR(L, ymap_get(m, "nr-count")->mark, "missing-key", "'nr-count' needs 'nr-param'");
		ok &= get_uint(L, m, "nr-count", 256, &c->nr_count);
		if (c->nr_count == 0) {
			LOAD_ERR(L, ymap_get(m, "nr-count")->mark, "range", "'nr-count' must be at least 1");
			ok = false;
		}
	} else if (c->nr_param) {
		LOAD_ERR(L, m->mark, "missing-key", "command '%s' has 'nr-param' but no 'nr-count'",
		    c->name ? c->name : "?");
		ok = false;
	}
	if (ymap_get(m, "size-param"))
		c->size_param = get_str(L, m, "size-param", &pm);
	ok &= load_unused_params(L, c, m);
	for (size_t i = 0; i < c->n_params; i++) {
		const char *p = c->params[i];

		if (!(c->nr_param && !strcmp(p, c->nr_param)) &&
		    !(c->size_param && !strcmp(p, c->size_param)) && !is_unused_param(c, p))
			LOAD_ERR(L, ymap_get(m, "params")->mark, "reference",
			    "parameter '%s' is neither nr-param nor size-param nor one of unused-params", p);
	}
	for (int which = 0; which < 2; which++) {
		const char *p = which ? c->size_param : c->nr_param;
		size_t i;

		if (!p)
			continue;
		for (i = 0; i < c->n_params; i++)
			if (!strcmp(p, c->params[i]))
				break;
		if (i == c->n_params) {
			LOAD_ERR(L, ymap_get(m, which ? "size-param" : "nr-param")->mark, "reference",
			    "'%s' is not one of the command's params", p);
			ok = false;
		}
	}
	if (ymap_get(m, "macro")) {
		macro = get_str(L, m, "macro", &mm);
		if (macro && strcmp(macro, "ioc")) {
			LOAD_ERR(L, mm, "type", "macro '%s' is unknown (the only one is ioc, for _IOC(dir, type, nr, size))",
			    macro);
			ok = false;
		}
		c->ioc = macro && !strcmp(macro, "ioc");
	}
	ok &= load_size_unit(L, c, m, dir != NULL);
	if (c->size_param && !c->size_unit)
		c->ioc = true;
	ok &= load_size(L, c, m);
	if (ymap_get(m, "reserved"))
		get_bool(L, m, "reserved", &c->reserved);
	if ((n = ymap_get(m, "legacy")))
		load_legacy(L, c, n);
	/* the grammar check says when it is no identifier; check_names.c finds the target */
	if (ymap_get(m, "alias-of")) {
		c->alias_of = get_str(L, m, "alias-of", &c->alias_mark);
		if (c->alias_of && !is_identifier(c->alias_of))
			c->alias_of = NULL;
		if (c->alias_of && c->name && !strcmp(c->alias_of, c->name)) {
			LOAD_ERR(L, c->alias_mark, "alias", "'alias-of': %s cannot be an alias of itself",
			    c->name);
			c->alias_of = NULL;
		}
	}
	load_variants(L, c, m);
	if (c->n_variants && c->nr_param) {
		LOAD_ERR(L, ymap_get(m, "variants")->mark, "type",
		    "a family over nr (nr-param) cannot have variants");
		ok = false;
	}
	for (size_t i = 0; i < c->n_variants; i++)
		if (c->nr_text && c->variants[i].nr == c->nr)
			LOAD_ERR(L, c->variants[i].nr_mark, "type",
			    "%s: the variant's nr %s is the command's own: drop the variant",
			    c->name ? c->name : "?", c->variants[i].nr_text);
	get_lifetime(L, m, &c->life);	/* a bad one is reported and left out */
	get_abi_change(L, c, m);
	ok &= load_evidence(L, c, m);
	if ((kind = get_str(L, m, "kind", &mm)) && strcmp(kind, "protocol-code")) {
		LOAD_ERR(L, mm, "type", "kind '%s' must be protocol-code (an ioctl request has no kind)",
		    kind);
		ok = false;
	}
	c->protocol_code = kind && !strcmp(kind, "protocol-code");
	c->accept = get_accept(L, m, ACCEPT_OUTSIDE_RANGE | ACCEPT_UNREGISTERED_MAGIC |
				  ACCEPT_SHARED_NUMBER | ACCEPT_SIZE_OVERFLOW |
				  ACCEPT_REUSED_NUMBER | ACCEPT_ROW_VERSIONS | ACCEPT_ABI_SIZE);
	get_new_and_reason(L, c, m);

	/* What the argument is: exactly one of type, size-param, legacy (or nothing for _IO). */
	if (c->legacy) {
		if (c->type) {
			LOAD_ERR(L, c->type_mark, "legacy-spelling",
			    "a legacy command has no 'type': its argument is spelled by legacy.spell-as");
			ok = false;
		}
		if (c->dir == DIR_NONE || c->ioc) {
			LOAD_ERR(L, c->legacy->mark, "legacy-spelling",
			    "a legacy entry needs dir read, write or read-write and no macro");
			ok = false;
		}
		if (c->has_size || c->size_param) {
			LOAD_ERR(L, c->legacy->mark, "legacy-spelling",
			    "a legacy entry has no 'size' or 'size-param': its size is legacy.written's");
			ok = false;
		}
	} else if (c->size_param) {
		if (c->type) {
			LOAD_ERR(L, c->type_mark, "type", "a command with a size-param has no 'type'");
			ok = false;
		}
	} else if (c->has_size) {
		if (c->type) {
			LOAD_ERR(L, c->type_mark, "type",
			    "a command with a literal 'size' has no 'type': the size is the number itself");
			ok = false;
		}
	} else if (c->dir == DIR_NONE && !c->ioc) {
		if (c->type) {
			LOAD_ERR(L, c->type_mark, "type",
			    "dir none encodes no size, so '%s' would be lost: drop the type, or use macro: ioc to keep a size",
			    c->type);
			ok = false;
		}
	} else if (!c->type && dir && !ymap_get(m, "legacy") && !ymap_get(m, "size")) {
		/* a broken legacy entry or size said enough */
		LOAD_ERR(L, m->mark, "missing-key", "command '%s' has no 'type'", c->name ? c->name : "?");
		ok = false;
	}
	if (ok && c->name && c->doc && dir && c->nr_text)
		h->n_commands++;
}

/* typedefs: [{name, type, doc}]: each becomes `typedef TYPE NAME;` in the
 * probes, so the type must be one a typedef can name as written. */
static void load_typedefs(struct loader *L, struct header *h, const struct ynode *root)
{
	const struct ynode *list = ymap_get(root, "typedefs");

	if (!list || !want_kind(L, list, "typedefs", Y_SEQ))
		return;
	h->typedefs = arena_alloc(L->a, (list->n + 1) * sizeof(*h->typedefs));
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *m = list->kids[i];
		struct ctypedef *t = &h->typedefs[h->n_typedefs];
		struct mark tm;

		if (!check_keys(L, m, "a typedef", typedef_fields, FORM_ANY))
			continue;
		t->mark = m->mark;
		t->name = get_str(L, m, "name", NULL);
		t->type = get_str(L, m, "type", &tm);
		t->doc = get_str(L, m, "doc", NULL);
		if (!t->name || !t->type || !t->doc)
			continue;
		if (strchr(t->type, '[')) {
			LOAD_ERR(L, tm, "type",
			    "a typedef's type is written as 'typedef TYPE NAME;', so it cannot be an array: '%s'",
			    t->type);
			continue;
		}
		if (is_sizeof(t->type) || is_number(t->type)) {
			LOAD_ERR(L, tm, "type", "a typedef's type must be a C type, not '%s'", t->type);
			continue;
		}
		for (size_t k = 0; k < h->n_typedefs; k++)
			if (!strcmp(h->typedefs[k].name, t->name)) {
				LOAD_ERR(L, t->mark, "duplicate-name", "typedef '%s' is already defined at %s:%u:%u",
				    t->name, h->typedefs[k].mark.file, h->typedefs[k].mark.line,
				    h->typedefs[k].mark.col);
				goto next;
			}
		h->n_typedefs++;
next:		;
	}
}

/* defines: feature macros the header's types need, #defined before every
 * include of a probe (sparc's asm/termios.h has struct sgttyb only with
 * __DEFINE_BSD_TERMIOS).  The grammar check says when one is no identifier. */
static void load_defines(struct loader *L, struct header *h, const struct ynode *root)
{
	const struct ynode *node;
	size_t n;

	h->defines = get_strlist(L, root, "defines", &n, &node);
	h->n_defines = n;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(h->defines[i], h->defines[k])) {
				LOAD_ERR(L, node->kids[i]->mark, "duplicate-name", "define '%s' is listed twice",
				    h->defines[i]);
				h->n_defines = 0;
				return;
			}
}

/* stub-includes: headers the header includes that the kernel does not export
 * (xen/privcmd.h's <xen/interface/xen.h>); an empty file stands in for each. */
static void load_stub_includes(struct loader *L, struct header *h, const struct ynode *root)
{
	const struct ynode *node;
	size_t n;

	h->stub_includes = get_strlist(L, root, "stub-includes", &n, &node);
	h->n_stub_includes = n;
	for (size_t i = 0; h->path && i < n; i++) {
		bool clash = !strcmp(h->stub_includes[i], h->path);

		for (size_t k = 0; k < h->n_includes; k++)
			clash |= !strcmp(h->stub_includes[i], h->includes[k]);
		for (size_t k = 0; k < i; k++)
			clash |= !strcmp(h->stub_includes[i], h->stub_includes[k]);
		if (clash) {
			LOAD_ERR(L, node->kids[i]->mark, "reference",
			    "stub-include '%s' is the header itself, one of its includes, or listed twice",
			    h->stub_includes[i]);
			h->n_stub_includes = 0;
			return;
		}
	}
}

void load_header(struct loader *L, const struct ynode *root)
{
	const char *rel = L->rel;
	struct registry *reg = L->reg;
	struct header *h;
	const struct ynode *list;
	struct mark hm;
	char *expect;

	L->about = (struct about){ NULL, scalar_text(ymap_get(root, "header")) };
	if (!check_keys(L, root, "a header spec", header_top, FORM_ANY))
		return;
	h = arena_slot(L->a, &reg->headers, &L->cap_headers, reg->n_headers,
		       sizeof(*reg->headers));
	h->mark = root->mark;
	h->spec = L->file;
	h->path = get_str(L, root, "header", &hm);
	h->path_mark = hm;	/* check_paths.c: where it is installed */
	h->doc = get_str(L, root, "doc", NULL);
	h->includes = get_strlist(L, root, "includes", &h->n_includes, NULL);
	h->header_test = true;
	if (ymap_get(root, "header-test"))
		get_bool(L, root, "header-test", &h->header_test);
	if (ymap_get(root, "patch-prefix"))
		h->patch_prefix = get_str(L, root, "patch-prefix", NULL);
	if (ymap_get(root, "kernel-internal"))
		get_bool(L, root, "kernel-internal", &h->kernel_internal);
	load_defines(L, h, root);
	load_header_types(L, h, root);
	load_typedefs(L, h, root);
	load_stub_includes(L, h, root);
	if (!h->path || !h->doc)
		return;
	if (h->kernel_internal && (h->is_new || ymap_get(root, "arch"))) {
		LOAD_ERR(L, hm, "type", "header '%s': a kernel-internal header is the tree's "
		    "include/%s, neither new nor an arch's", h->path, h->path);
		return;
	}
	if (ymap_get(root, "arch") && !(h->arch = get_str(L, root, "arch", NULL)))
		return;
	/* headers/linux/fs.yaml describes linux/fs.h, headers/arch/powerpc/asm/ioctls.yaml
	 * powerpc's asm/ioctls.h: keep the two in step. */
	if (strlen(h->path) < 3 || strcmp(h->path + strlen(h->path) - 2, ".h")) {
		LOAD_ERR(L, hm, "type", "header '%s' must be a path ending in .h", h->path);
		return;
	}
	expect = h->arch ? arena_printf(L->a, "headers/arch/%s/%.*s.yaml", h->arch,
					(int)(strlen(h->path) - 2), h->path) :
			   arena_printf(L->a, "headers/%.*s.yaml", (int)(strlen(h->path) - 2), h->path);
	if (strcmp(expect, rel)) {
		LOAD_ERR(L, hm, "reference", "header '%s'%s%s belongs in %s/%s, not %s", h->path,
		    h->arch ? " of arch " : "", h->arch ? h->arch : "", reg->spec_dir, expect, rel);
		return;
	}
	list = get_list(L, root, "commands");
	if (list) {
		h->commands = arena_alloc(L->a, (list->n + 1) * sizeof(*h->commands));
		for (size_t i = 0; i < list->n; i++) {
			L->about.command = scalar_text(ymap_get(list->kids[i], "name"));
			load_command(L, h, list->kids[i]);
		}
		L->about.command = NULL;
	}
	reg->n_headers++;
}
