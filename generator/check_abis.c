// SPDX-License-Identifier: GPL-2.0
/*
 * ABIs: each one's layout, the base of a variant ABI, its sizes; the ABIs
 * a command's variants name; the fields every layout must hold.
 */
#include <string.h>

#include "rules.h"

/* A variant (the same compiler with a 64-bit time_t) names an ABI listed
 * before it that is no variant itself, with its layout and ARCH: then
 * "differs from its base" means only what the options change. */
static void link_variant(struct registry *reg, struct abi *abi, size_t i)
{
	const struct abi *base = NULL;

	if (!abi->variant_of_name)
		return;
	for (size_t k = 0; k < i && !base; k++)
		if (!strcmp(reg->abis[k].name, abi->variant_of_name))
			base = &reg->abis[k];
	if (!base) {
		ERR(reg, abi->variant_mark, "reference", "ABI '%s' is a variant of '%s', %s", abi->name,
		    abi->variant_of_name, registry_abi(reg, abi->variant_of_name)
		    ? "which is listed after it" : "which is no ABI");
	} else if (base->variant_of_name) {
		ERR(reg, abi->variant_mark, "reference",
		    "ABI '%s' is a variant of '%s', which is itself a variant of '%s'", abi->name,
		    base->name, base->variant_of_name);
	} else if (strcmp(base->layout_name, abi->layout_name) || !base->arch || !abi->arch ||
		   strcmp(base->arch, abi->arch)) {
		ERR(reg, abi->variant_mark, "reference",
		    "ABI '%s' is a variant of '%s' but has another layout or ARCH (%s, %s; '%s' has %s, %s)",
		    abi->name, base->name, abi->layout_name, abi->arch ? abi->arch : "none",
		    base->name, base->layout_name, base->arch ? base->arch : "none");
	} else {
		abi->variant_of = base;
	}
}

void link_abis(struct registry *reg, bool sized)
{
	for (size_t i = 0; i < reg->n_abis; i++) {
		struct abi *abi = &reg->abis[i];

		abi->layout = registry_layout(reg, abi->layout_name);
		if (!abi->layout)
			ERR(reg, abi->mark, "reference", "ABI '%s' names an unknown layout '%s'", abi->name,
			    abi->layout_name);
		link_variant(reg, abi, i);
		if (sized && !abi->sizes_file)
			ERR(reg, abi->mark, "missing-size",
			    "ABI '%s' has no measured sizes (%s/sizes/%s.yaml): run 'make sizes'", abi->name,
			    reg->spec_dir, abi->name);
	}
}

/* Each variant names ABIs of the registry, each ABI in one variant at most,
 * and only ABIs that can have the command (a per-arch header's ARCH). */
void check_variants(struct registry *reg)
{
	for_each_command(reg, c) {
		for (size_t v = 0; v < c->n_variants; v++) {
			const struct variant *va = &c->variants[v];

			for (size_t k = 0; k < va->n_abis; k++) {
				const struct abi *abi = NULL;
				bool twice = false;

				for (size_t a = 0; a < reg->n_abis; a++)
					if (!strcmp(reg->abis[a].name, va->abis[k]))
						abi = &reg->abis[a];
				for (size_t w = 0; w <= v; w++)
					for (size_t j = 0; j < (w == v ? k : c->variants[w].n_abis); j++)
						twice |= !strcmp(c->variants[w].abis[j], va->abis[k]);
				if (!abi)
					CMD_ERR(reg, c, va->abi_marks[k], "reference",
					    "%s: variant ABI '%s' is not in abis.yaml", c->name, va->abis[k]);
				else if (twice)
					CMD_ERR(reg, c, va->abi_marks[k], "duplicate-name",
					    "%s: ABI '%s' is in more than one variant", c->name, va->abis[k]);
				else if (c->header->arch && (!abi->arch || strcmp(abi->arch, c->header->arch)))
					CMD_ERR(reg, c, va->abi_marks[k], "reference",
					    "%s: variant ABI '%s' is not of ARCH %s, the header's", c->name,
					    va->abis[k], c->header->arch);
			}
		}
	}
}

void check_ranges(struct registry *reg)
{
	const struct layout *lt = registry_smallest(reg, layout_max_type);
	const struct layout *ln = registry_smallest(reg, layout_max_nr);

	if (!lt || !ln)
		return;
	for (size_t i = 0; i < reg->n_rows; i++) {
		struct magic_row *r = &reg->rows[i];

		if (r->code > layout_max_type(lt))
			ERR(reg, r->mark, "range", "code %s does not fit the %u-bit type field of layout '%s'",
			    r->code_text, lt->type_bits, lt->name);
	}
	for_each_command(reg, c) {
		uint64_t last = (uint64_t)c->nr + c->nr_count - 1;

		if (c->plain)	/* a 32-bit number, checked when loaded */
			continue;
		if (c->magic > layout_max_type(lt))
			CMD_ERR(reg, c, c->magic_mark, "range",
			    "%s: magic %s does not fit the %u-bit type field of layout '%s'", c->name,
			    c->magic_text, lt->type_bits, lt->name);
		if (last > layout_max_nr(ln))
			CMD_ERR(reg, c, c->nr_mark, "range",
			    "%s: nr %llu does not fit the %u-bit nr field of layout '%s'", c->name,
			    (unsigned long long)last, ln->nr_bits, ln->name);
		for (size_t v = 0; v < c->n_variants; v++)
			if (c->variants[v].nr > layout_max_nr(ln))
				CMD_ERR(reg, c, c->variants[v].nr_mark, "range",
				    "%s: nr %s does not fit the %u-bit nr field of layout '%s'",
				    c->name, c->variants[v].nr_text, ln->nr_bits, ln->name);
	}
}

/* The types whose kernel-context size a kernel-internal command asks for:
 * the one its number encodes, its size-unit, a legacy spelling's. */
static void kernel_types(const struct registry *reg, struct nameset *set)
{
	for_each_command(reg, c) {
		const char *t[4] = { command_sized_type(c), c->size_unit, NULL, NULL };

		if (!c->header->kernel_internal)
			continue;
		if (c->legacy) {
			t[2] = legacy_written_type(c->legacy->written);
			t[3] = c->legacy->spell_as;
		}
		for (int i = 0; i < 4; i++)
			if (t[i])
				nameset_add(set, t[i], strlen(t[i]));
	}
}

/*
 * A kernel-sizes: entry is measured for a kernel-internal command: one that
 * no such command asks for is left over (its command gone, or moved out of
 * kernel context) and tells the reader of the file something untrue.  Each
 * sizes file once: an ABI's own, or each known version's.
 */
void check_kernel_sizes(struct registry *reg)
{
	struct nameset used = { 0 };

	kernel_types(reg, &used);
	for (size_t k = 0; k < reg->n_abis; k++) {
		const struct abi *abi = &reg->abis[k];
		size_t nv = abi->by_version ? reg->n_versions : 1;

		for (size_t v = 0; v < nv; v++) {
			const struct size_entry *e = abi->by_version ? abi->by_version[v].ksizes : abi->ksizes;
			size_t n = abi->by_version ? abi->by_version[v].n_ksizes : abi->n_ksizes;

			if (abi->by_version && !abi->by_version[v].sizes_file)
				continue;
			for (size_t i = 0; i < n; i++)
				if (!nameset_has(&used, e[i].type, strlen(e[i].type)))
					WARN(reg, e[i].mark, "unused-size", false,
					     "kernel-sizes: '%s' is the size of no kernel-internal command's type on %s",
					     e[i].type, abi->name);
		}
	}
	nameset_release(&used);
}
