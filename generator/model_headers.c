// SPDX-License-Identifier: GPL-2.0
/*
 * The model's headers: each header spec's typedefs, constants and types,
 * and its commands with their spelling, lifetime, variants and numbers
 * (those of each known version where they differ).
 */
#include "json.h"

/* Do two versions' numbers of a command differ on some ABI (a number, a
 * size, or a presence)? */
static bool numbers_differ(const struct registry *reg, const struct abi_number *a,
			   const struct abi_number *b)
{
	for (size_t k = 0; k < reg->n_abis; k++)
		if (a[k].present != b[k].present ||
		    (a[k].present && (a[k].number != b[k].number || a[k].size != b[k].size ||
				      a[k].variable_size != b[k].variable_size || a[k].unit != b[k].unit)))
			return true;
	return false;
}

static void write_numbers_of(struct json *j, const struct registry *reg, const struct command *c,
			     const char *key, const struct abi_number *numbers);

/* numbers: the newest version's; numbers-by-version: each other version's
 * where they differ from those (a number, or the ABIs that have it). */
static void write_numbers(struct json *j, const struct registry *reg, const struct command *c)
{
	write_numbers_of(j, reg, c, "numbers", c->numbers);
	open_(j, "numbers-by-version", '{');
	for (size_t v = c->life.first; c->by_version && v < c->life.end; v++)
		if (c->by_version[v] != c->numbers && numbers_differ(reg, c->by_version[v], c->numbers))
			write_numbers_of(j, reg, c, reg->versions[v].name, c->by_version[v]);
	close_(j, '}');
}

static void write_numbers_of(struct json *j, const struct registry *reg, const struct command *c,
			     const char *key, const struct abi_number *numbers)
{
	open_(j, key, '{');
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi_number *n = &numbers[k];

		if (!n->present)
			continue;
		open_(j, reg->abis[k].name, '{');
		kuint(j, "number", n->number);
		khex(j, "hex", n->number);
		if (n->variable_size) {
			member(j, "size");
			sb_lit(j->sb, "null");
		} else {
			kuint(j, "size", n->size);
		}
		if (c->size_unit)	/* the size of N elements is N times this */
			kuint(j, "unit-size", n->unit);
		if (c->plain) {	/* the fields as this ABI's layout splits the number */
			struct ioc_fields f;

			layout_decode(reg->abis[k].layout, n->number, &f);
			kstr(j, "dir", f.dir_name < 0 ? NULL : dir_names[f.dir_name]);
			kuint(j, "type", f.type);
			kuint(j, "nr", f.nr);
		}
		close_(j, '}');
	}
	close_(j, '}');
}

/* A constant, or an enum's value (without the text of its value). */
static void write_named_value(struct json *j, const struct cconstant *k, bool with_text)
{
	open_(j, NULL, '{');
	kstr(j, "name", k->name);
	kuint(j, "value", k->value);
	if (with_text)
		kstr(j, "value-text", k->value_text);
	kstr(j, "doc", k->doc);
	ksource(j, k->mark);
	close_(j, '}');
}

/* new, constants and types: what the registry renders of a header */
static void write_header_types(struct json *j, const struct header *hd)
{
	static const char *const kinds[] = { "struct", "union", "enum" };

	kbool(j, "new", hd->is_new);
	open_(j, "constants", '[');
	for (size_t i = 0; i < hd->n_constants; i++)
		write_named_value(j, &hd->constants[i], true);
	close_(j, ']');
	open_(j, "types", '[');
	for (size_t i = 0; i < hd->n_types; i++) {
		const struct ctype_def *t = &hd->types[i];

		open_(j, NULL, '{');
		kstr(j, "name", t->name);
		kstr(j, "kind", kinds[t->kind]);
		kstr(j, "c-name", t->c_name);
		kbool(j, "kernel-internal", t->kernel_internal);
		kstr(j, "doc", t->doc);
		ksource(j, t->mark);
		open_(j, "members", '[');
		for (size_t m = 0; m < t->n_members; m++) {
			const struct cmember *mb = &t->members[m];

			open_(j, NULL, '{');
			kstr(j, "name", mb->name);
			kstr(j, "type", mb->type);
			kuint_or_null(j, "len", mb->len_text != NULL, mb->len);
			kstr(j, "len-text", mb->len_text);
			kbool(j, "pad", mb->pad);
			kstr(j, "doc", mb->doc);
			ksource(j, mb->mark);
			close_(j, '}');
		}
		close_(j, ']');
		open_(j, "values", '[');
		for (size_t v = 0; v < t->n_values; v++)
			write_named_value(j, &t->values[v], false);
		close_(j, ']');
		close_(j, '}');
	}
	close_(j, ']');
}

/* not-measured: {ABI: [versions]} where a kernel-internal header was not
 * measured (kernel-context of the sizes file): there it has no number and
 * none is guessed; {} for every other command. */
static void write_not_measured(struct json *j, const struct registry *reg, const struct command *c)
{
	size_t n_v = reg->n_versions ? reg->n_versions : 1;

	open_(j, "not-measured", '{');
	for (size_t k = 0; c->header->kernel_internal && k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		bool any = false;

		for (size_t v = 0; v < n_v && abi_arch_has(abi, c); v++) {
			if (!lifetime_has(&c->life, v) || abi_measured_in(abi, c, v))
				continue;
			if (!any)
				open_(j, abi->name, '[');
			any = true;
			kstr(j, NULL, reg->n_versions ? reg->versions[v].name : NULL);
		}
		if (any)
			close_(j, ']');
	}
	close_(j, '}');
}

static void write_command(struct json *j, const struct registry *reg, const struct command *c)
{
	const char *measure[MEASURE_MAX];
	size_t n_measure = command_measure(c, measure);

	open_(j, NULL, '{');
	kstr(j, "name", c->name);
	if (c->plain) {		/* no _IO* fields: see "number" */
		kstr(j, "dir", NULL);
		kstr(j, "magic", NULL);
		kstr(j, "magic-text", NULL);
		kstr(j, "nr", NULL);
		kstr(j, "nr-text", NULL);
	} else {
		kstr(j, "dir", dir_names[c->dir]);
		kuint(j, "magic", c->magic);
		kstr(j, "magic-text", c->magic_text);
		kuint(j, "nr", c->nr);
		kstr(j, "nr-text", c->nr_text);
	}
	kuint(j, "nr-count", c->nr_count);
	kstrlist(j, "params", c->params, c->n_params);
	kstr(j, "nr-param", c->nr_param);
	kstr(j, "size-param", c->size_param);
	kstr(j, "size-unit", c->size_unit);
	kstrlist(j, "unused-params", c->unused_params, c->n_unused_params);
	kstr(j, "type", c->type);
	if (c->has_size)
		kuint(j, "size", c->size);
	else
		kstr(j, "size", NULL);
	kstrlist(j, "measure", measure, n_measure);
	kbool(j, "reserved", c->reserved);
	kbool(j, "new", command_is_new(c));
	kstr(j, "accept-reason", c->accept_reason);
	kbool(j, "uapi", !c->header->kernel_internal);
	kstr(j, "alias-of", c->alias_of);
	kstr(j, "macro", c->macro);
	kstrlist(j, "args", c->args, c->n_args);
	/* spelled as another's name: per ABI only, see "numbers" */
	kuint_or_null(j, "number", c->plain && !c->by_name, c->number);
	kstr(j, "number-text", c->number_text);
	kstr(j, "passes", c->passes);
	model_write_argument(j, c);
	if (c->legacy) {
		open_(j, "legacy", '{');
		kstr(j, "written", c->legacy->written);
		kstr(j, "written-type", legacy_written_type(c->legacy->written));
		kstr(j, "passes", c->legacy->passes);
		kstr(j, "spell-as", c->legacy->spell_as);
		kstr(j, "kind", legacy_kind(c->legacy));
		kstr(j, "doc", c->legacy->doc);
		kstr(j, "abi-break", c->legacy->abi_break);
		close_(j, '}');
	} else {
		kstr(j, "legacy", NULL);
	}
	open_(j, "variants", '[');
	for (size_t v = 0; v < c->n_variants; v++) {
		const struct variant *va = &c->variants[v];

		open_(j, NULL, '{');
		kstrlist(j, "abis", va->abis, va->n_abis);
		kuint_or_null(j, "nr", va->nr_text != NULL, va->nr);
		kstr(j, "nr-text", va->nr_text);
		kstr(j, "alias-of", va->alias_of);
		kstr(j, "doc", va->doc);
		ksource(j, va->mark);
		close_(j, '}');
	}
	close_(j, ']');
	write_lifetime(j, reg, &c->life);
	model_write_lifetime_text(j, reg, &c->life);
	/* as written, for the importer to keep (the reason is also in abi-changes) */
	kstr(j, "abi-change", c->abi_change);
	/* only where the spec says, so that the other commands' model is as before */
	if (c->n_evidence)
		kstrlist(j, "evidence", c->evidence, c->n_evidence);
	if (c->protocol_code)
		kstr(j, "kind", "protocol-code");
	if (reg->numbered) {
		write_numbers(j, reg, c);
		write_not_measured(j, reg, c);
	}
	kstr(j, "doc", c->doc);
	accept_list(j, c->accept);
	ksource(j, c->mark);
	close_(j, '}');
}

void model_write_headers(struct json *j, const struct registry *reg)
{
	open_(j, "headers", '[');
	for (size_t h = 0; h < reg->n_headers; h++) {
		const struct header *hd = &reg->headers[h];

		open_(j, NULL, '{');
		kstr(j, "path", hd->path);
		kstr(j, "arch", hd->arch);
		kstr(j, "spec", hd->spec);
		kstr(j, "doc", hd->doc);
		kstrlist(j, "defines", hd->defines, hd->n_defines);
		kstrlist(j, "includes", hd->includes, hd->n_includes);
		kbool(j, "header-test", hd->header_test);
		kbool(j, "kernel-internal", hd->kernel_internal);
		kstr(j, "patch-prefix", hd->patch_prefix);
		model_write_header_versions(j, reg, hd);
		open_(j, "typedefs", '[');
		for (size_t i = 0; i < hd->n_typedefs; i++) {
			open_(j, NULL, '{');
			kstr(j, "name", hd->typedefs[i].name);
			kstr(j, "type", hd->typedefs[i].type);
			kstr(j, "doc", hd->typedefs[i].doc);
			ksource(j, hd->typedefs[i].mark);
			close_(j, '}');
		}
		close_(j, ']');
		kstrlist(j, "stub-includes", hd->stub_includes, hd->n_stub_includes);
		write_header_types(j, hd);
		open_(j, "commands", '[');
		for (size_t i = 0; i < hd->n_commands; i++)
			write_command(j, reg, &hd->commands[i]);
		close_(j, ']');
		close_(j, '}');
	}
	close_(j, ']');
}
