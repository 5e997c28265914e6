// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of a command entry that have loaders of their own: legacy,
 * abi-change, variants, unused-params, size-unit and size.  The entry
 * itself is spec_header.c's.
 */
#include <string.h>

#include "spec_load.h"

void load_legacy(struct loader *L, struct command *c, const struct ynode *m)
{
	struct legacy *lg;

	if (!check_keys(L, m, "a legacy entry", legacy_fields, FORM_ANY))
		return;
	lg = arena_alloc(L->a, sizeof(*lg));
	lg->mark = m->mark;
	lg->written = get_str(L, m, "written", &lg->written_mark);
	lg->passes = get_str(L, m, "passes", NULL);
	lg->spell_as = get_str(L, m, "spell-as", &lg->spell_mark);
	lg->doc = get_str(L, m, "doc", NULL);
	if (ymap_get(m, "abi-break"))
		lg->abi_break = get_str(L, m, "abi-break", NULL);
	if (!lg->written || !lg->passes || !lg->spell_as || !lg->doc)
		return;
	if (!legacy_written_type(lg->written)) {
		LOAD_ERR(L, lg->written_mark, "legacy-spelling",
		    "'written' must be what the header once passed: a sizeof(...) expression or a number, not '%s'",
		    lg->written);
		return;
	}
	if (strcmp(lg->spell_as, "bad") && (is_sizeof(lg->spell_as) || is_number(lg->spell_as))) {
		LOAD_ERR(L, lg->spell_mark, "sizeof-argument",
		    "'spell-as' must be 'bad' or a C type, not '%s'", lg->spell_as);
		return;
	}
	c->legacy = lg;
}

/* abi-change: why the command's number may change between known versions,
 * a non-empty line of text (check_numbers.c compares the numbers). */
void get_abi_change(struct loader *L, struct command *c, const struct ynode *m)
{
	const char *s;

	if (!ymap_get(m, "abi-change"))
		return;
	s = get_str(L, m, "abi-change", &c->abi_change_mark);
	if (s && !*s)
		LOAD_ERR(L, c->abi_change_mark, "type",
		    "'abi-change' is the reason the number may change between versions: it cannot be empty");
	else
		c->abi_change = s;
}

/* new: true for a command the pristine trees lack (the series adds it);
 * accept-reason: why the warnings it accepts are right. */
void get_new_and_reason(struct loader *L, struct command *c, const struct ynode *m)
{
	const struct ynode *n;
	const char *s;

	if ((n = ymap_get(m, "new"))) {
		c->new_mark = n->mark;
		get_bool(L, m, "new", &c->is_new);
	}
	if (!ymap_get(m, "accept-reason"))
		return;
	s = get_str(L, m, "accept-reason", NULL);
	if (s && !*s)
		LOAD_ERR(L, ymap_get(m, "accept-reason")->mark, "type",
		    "'accept-reason' says why the accepted warnings are right: it cannot be empty");
	else
		c->accept_reason = s;
}

/* variants: [{abis, nr, doc}]: the nr the header spells on those ABIs, or
 * for a command spelled as another's name [{abis, alias-of, doc}]: the
 * name it is there.  Which ABIs exist is checked with the registry (check_abis.c). */
void load_variants(struct loader *L, struct command *c, const struct ynode *m)
{
	const struct ynode *list = ymap_get(m, "variants");

	if (!list || !want_kind(L, list, "variants", Y_SEQ))
		return;
	if (!list->n) {
		LOAD_ERR(L, list->mark, "type", "'variants' is empty: drop it");
		return;
	}
	c->variants = arena_alloc(L->a, list->n * sizeof(*c->variants));
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *vm = list->kids[i], *n = NULL, *abis;
		struct variant *v = &c->variants[c->n_variants];
		uint64_t nr = 0;

		if (!check_keys(L, vm, c->by_name ? "a variant of a command spelled as another's name" :
				"a variant", variant_fields, c->by_name ? FORM_PLAIN : FORM_IOC))
			continue;
		memset(v, 0, sizeof(*v));
		v->mark = vm->mark;
		v->doc = get_str(L, vm, "doc", NULL);
		v->abis = get_strlist(L, vm, "abis", &v->n_abis, &abis);
		if (c->by_name) {
			v->alias_of = get_str(L, vm, "alias-of", &v->alias_mark);
			if (!v->alias_of || !is_identifier(v->alias_of))
				continue;	/* the grammar check says why */
			if (c->alias_of && !strcmp(v->alias_of, c->alias_of)) {
				LOAD_ERR(L, v->alias_mark, "type",
				    "%s: the variant's alias-of %s is the command's own: drop the variant",
				    c->name ? c->name : "?", v->alias_of);
				continue;
			}
		} else {
			n = ymap_get(vm, "nr");
			if (!n || !node_uint(L, n, "nr", UINT32_MAX, &nr))
				continue;
		}
		if (!v->doc || !abis)
			continue;
		if (!v->n_abis) {
			LOAD_ERR(L, abis->mark, "type", "a variant names at least one ABI");
			continue;
		}
		if (v->n_abis != abis->n)
			continue;	/* an item that is no string, reported */
		v->abi_marks = arena_alloc(L->a, v->n_abis * sizeof(*v->abi_marks));
		for (size_t k = 0; k < v->n_abis; k++)
			v->abi_marks[k] = abis->kids[k]->mark;
		if (n) {
			v->nr = (unsigned int)nr;
			v->nr_text = n->str;
			v->nr_mark = n->mark;
		}
		c->n_variants++;
	}
}

/* The strings of an optional list that must not be empty: NULL when the
 * key is absent (*ok stays) or wrong (*ok false, reported where it is). */
static const char **nonempty_strlist(struct loader *L, const struct ynode *m, const char *key,
				     size_t *n, const struct ynode **node, bool *ok)
{
	const char **v = get_strlist(L, m, key, n, node);

	if (!*node)
		return NULL;
	if (!v || *n != (*node)->n) {
		*ok = false;	/* no list, or an item that is no string: reported */
		return NULL;
	}
	if (!*n) {
		LOAD_ERR(L, (*node)->mark, "type", "'%s' is empty: drop it", key);
		*ok = false;
		return NULL;
	}
	return v;
}

static bool listed_before(const char *const *v, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(v[i], v[k]))
			return true;
	return false;
}

/*
 * unused-params: [s]: parameters of the macro that the number does not
 * depend on (vboxguest.h's VBG_IOCTL_LOG(s) is _IO('V', 9)).  Each must be
 * one of params, once, and neither nr-param nor size-param.
 */
bool load_unused_params(struct loader *L, struct command *c, const struct ynode *m)
{
	const struct ynode *node;
	size_t n;
	bool ok = true;
	const char **v = nonempty_strlist(L, m, "unused-params", &n, &node, &ok);

	if (!v)
		return ok;
	for (size_t i = 0; i < n; i++) {
		struct mark at = node->kids[i]->mark;
		bool known = false, twice = listed_before(v, i);

		for (size_t k = 0; k < c->n_params; k++)
			known |= !strcmp(v[i], c->params[k]);
		if (!known) {
			LOAD_ERR(L, at, "reference", "unused parameter '%s' is not one of the command's params",
			    v[i]);
			ok = false;
		} else if (twice) {
			LOAD_ERR(L, at, "reference", "unused parameter '%s' is listed twice", v[i]);
			ok = false;
		} else if ((c->nr_param && !strcmp(v[i], c->nr_param)) ||
			   (c->size_param && !strcmp(v[i], c->size_param))) {
			LOAD_ERR(L, at, "reference",
			    "parameter '%s' is %s: the number depends on it, so it is not unused", v[i],
			    c->nr_param && !strcmp(v[i], c->nr_param) ? "nr-param" : "size-param");
			ok = false;
		}
	}
	c->unused_params = v;
	c->n_unused_params = n;
	return ok;
}

/*
 * size-unit: TYPE beside size-param N: the size field holds N elements of
 * TYPE, spelled _IOR/_IOW/_IOWR(magic, nr, TYPE[N]) (spidev.h's
 * SPI_IOC_MESSAGE(N), N struct spi_ioc_transfer).
 */
bool load_size_unit(struct loader *L, struct command *c, const struct ynode *m,
		    bool have_dir)
{
	const struct ynode *n = ymap_get(m, "size-unit");
	struct mark at;

	if (!n)
		return true;
	c->size_unit = get_str(L, m, "size-unit", &at);
	c->type_mark = at;	/* where a missing size of the unit is reported */
	if (!c->size_unit)
		return false;
	if (is_sizeof(c->size_unit) || is_number(c->size_unit)) {
		LOAD_ERR(L, at, "sizeof-argument",
		    "'size-unit' is the C type of one element, not a size: '%s'", c->size_unit);
		return false;
	}
	if (!c->size_param) {
		LOAD_ERR(L, at, "missing-key",
		    "'size-unit' needs 'size-param': the parameter counts the elements");
		return false;
	}
	if (c->ioc) {
		LOAD_ERR(L, at, "type",
		    "'size-unit' is spelled with _IOR, _IOW or _IOWR (TYPE[%s]), not with macro: ioc",
		    c->size_param);
		return false;
	}
	if (have_dir && c->dir == DIR_NONE) {
		LOAD_ERR(L, at, "type", "dir none encodes no size: a size-unit needs dir read, write or read-write");
		return false;
	}
	return true;
}

/*
 * size: N: _IOC(dir, magic, nr, N) with a literal size (zcrypt.h's
 * _IOC(_IOC_READ | _IOC_WRITE, 'z', 0x05, 0)).  Only with macro: ioc, and
 * the size is the only one: no type, no size-param.  Whether it fits every
 * layout's size field is a registry rule (numbers.c).
 */
bool load_size(struct loader *L, struct command *c, const struct ynode *m)
{
	const struct ynode *n = ymap_get(m, "size");
	uint64_t v;

	if (!n)
		return true;
	c->size_mark = n->mark;
	if (!node_uint(L, n, "size", UINT32_MAX, &v))
		return false;
	if (!c->ioc) {
		LOAD_ERR(L, n->mark, "missing-key",
		    "'size' needs 'macro: ioc': a literal size is spelled _IOC(dir, magic, nr, %s)", n->str);
		return false;
	}
	if (c->size_param) {
		LOAD_ERR(L, n->mark, "type", "a command has 'size' or 'size-param', not both");
		return false;
	}
	c->has_size = true;
	c->size = (uint32_t)v;
	c->size_text = n->str;
	return true;
}

/*
 * evidence: [s]: why tools/import-uapi took a #define or an enumerator no
 * _IO* macro marks as a command: "magic-range" (its value lies in a row of
 * magic.yaml that names its header), "case-label FILE" (an ioctl handler
 * of the tree switches on it), "block" (it sits among the header's
 * commands), "enumerator" (an _IO* value in an enum).  Each once.
 */
static bool evidence_ok(const char *s)
{
	static const char *const bare[] = { "magic-range", "block", "enumerator", NULL };
	const char *p;

	for (size_t i = 0; bare[i]; i++)
		if (!strcmp(s, bare[i]))
			return true;
	if (strncmp(s, "case-label ", 11) || !s[11] || strstr(s, ".."))
		return false;
	for (p = s + 11; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-", *p))
			return false;
	return s[11] != '/';
}

bool load_evidence(struct loader *L, struct command *c, const struct ynode *m)
{
	const struct ynode *node;
	size_t n;
	bool ok = true;
	const char **v = nonempty_strlist(L, m, "evidence", &n, &node, &ok);

	if (!v)
		return ok;
	for (size_t i = 0; i < n; i++) {
		struct mark at = node->kids[i]->mark;

		if (!evidence_ok(v[i])) {
			LOAD_ERR(L, at, "type",
			    "evidence '%s' must be magic-range, block, enumerator or 'case-label FILE' (a path in the kernel tree)",
			    v[i]);
			ok = false;
		} else if (listed_before(v, i)) {
			LOAD_ERR(L, at, "type", "evidence '%s' is listed twice", v[i]);
			ok = false;
		}
	}
	c->evidence = v;
	c->n_evidence = n;
	return ok;
}
