/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry in memory: layouts, ABIs, versions, the magic-code table,
 * headers and their commands, and what the check found (collisions, ABI
 * changes, lint findings); the lookups and the order every stage shares.
 */
#ifndef IOCTLGEN_REGISTRY_H
#define IOCTLGEN_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "grammar.h"
#include "layout.h"
#include "util.h"

/* ------------------------------------------------------------ ABIs and sizes */

struct command;

struct size_entry {
	const char *type;
	uint32_t size;
	struct mark mark;
};

/* What one sizes file says of one ABI: sizes/<abi>.yaml for the oldest
 * known version (or a registry without versions), sizes/<V>/<abi>.yaml for
 * each later version V. */
struct abi_sizes {
	struct size_entry *sizes;	/* sorted by type, for bsearch */
	size_t n_sizes;
	struct size_entry *ksizes;	/* kernel-sizes:, sorted */
	size_t n_ksizes;
	const char **absent;	/* sorted */
	size_t n_absent;
	const char **kcontext;	/* kernel-context: the kernel-internal headers measured, sorted */
	size_t n_kcontext;
	const char *sizes_file;	/* NULL: no such file */
	struct mark mark;	/* its abi: value */
};

struct abi {
	const char *name, *doc, *layout_name, *arch, *cc;
	const char **cflags;
	size_t n_cflags;
	const struct layout *layout;
	/* variant-of: the ABI this one varies by compiler options only (a
	 * 64-bit time_t); same layout and ARCH; NULL for the others */
	const char *variant_of_name;
	const struct abi *variant_of;
	struct mark variant_mark;
	struct size_entry *sizes;	/* sorted by type, for bsearch */
	size_t n_sizes;
	/* kernel-sizes: a type's size in kernel context where it differs from
	 * sizes:, for the commands of kernel-internal headers; sorted */
	struct size_entry *ksizes;
	size_t n_ksizes;
	const char **absent;	/* commands its headers do not define here, sorted */
	size_t n_absent;
	/* kernel-context: the kernel-internal headers measured in kernel
	 * context on this ABI, sorted; the others' commands are not measured */
	const char **kcontext;
	size_t n_kcontext;
	const char *sizes_file;
	/* The sizes of each known version, n_versions of them ([0] the oldest's,
	 * as above); NULL without versions.  check_numbers.c points the fields above at
	 * one version's while it numbers the commands of that version, and
	 * back at the oldest's after. */
	struct abi_sizes *by_version;
	/* the version numbered now has no sizes file for this ABI: the fields
	 * above are an earlier version's, and the missing file is reported
	 * once instead of each missing size (check_numbers.c) */
	bool sizes_borrowed;
	struct mark mark;
};

/* The measured size of a C type on an ABI; false when not measured. */
bool abi_sizeof(const struct abi *abi, const char *type, uint32_t *size);
/* The same for a type of command c: a kernel-internal header's command
 * takes the ABI's kernel-sizes: first. */
bool abi_sizeof_for(const struct abi *abi, const struct command *c, const char *type,
		    uint32_t *size);
/* Does the ABI have this command?  Arch headers and measured absences say no. */
bool abi_has(const struct abi *abi, const struct command *c);
/* Was the command's header measured on the ABI?  Always, but for a
 * kernel-internal header that the ABI's sizes file lists in kernel-context:
 * elsewhere it is "not measured", neither present nor absent. */
bool abi_measured(const struct abi *abi, const struct command *c);
/* The same in known version v, whichever version's sizes are shown now. */
bool abi_measured_in(const struct abi *abi, const struct command *c, size_t v);
/* Is the command's header one the ABI's ARCH has (every header but arch ones)? */
bool abi_arch_has(const struct abi *abi, const struct command *c);
/* The nr of command c on ABI abi: a variant's, or its own. */
unsigned int command_nr_on(const struct command *c, const struct abi *abi);
/* What c is another name of on ABI abi (a variant's alias-of, or its own; NULL
 * for none), and the end of that alias-of chain (c's name for none). */
const char *command_alias_on(const struct command *c, const struct abi *abi);
const char *command_alias_root_on(const struct command *c, const struct abi *abi);

/* ------------------------------------------------------------ kernel versions */

/* A kernel version the registry knows (versions.yaml), oldest first; at
 * most MAX_VERSIONS of them (a collision keeps its versions as bits). */
#define MAX_VERSIONS 64

struct kversion {
	const char *name, *doc;	/* name: "6.12", a YAML string */
	struct mark mark;
};

/*
 * The known versions an entry (a command, a magic-code row) exists in:
 * versions[first .. end), as its since and removed say (check_lifetimes.c).  since
 * omitted: the oldest known version; removed omitted: still there.  A
 * registry without versions.yaml knows none: first = end = 0.
 */
struct lifetime {
	const char *since, *removed;	/* as written, or NULL */
	struct mark since_mark, removed_mark;
	size_t first, end;
};

static inline bool lifetime_has(const struct lifetime *l, size_t v)
{
	return v >= l->first && v < l->end;
}

/* The known versions of a lifetime as a set: bit v for versions[v]. */
static inline uint64_t lifetime_set(const struct lifetime *l)
{
	uint64_t all = l->end >= 64 ? ~0ull : (1ull << l->end) - 1;

	return l->first >= 64 ? 0 : all & ~((1ull << l->first) - 1);
}

/* Do two entries exist in one known version at least?  Without known
 * versions every entry coexists with every other. */
static inline bool lifetimes_meet(const struct lifetime *a, const struct lifetime *b)
{
	if (a->first == a->end && b->first == b->end)
		return true;
	return a->first < b->end && b->first < a->end;
}

/* ------------------------------------------------------------ magic codes */

/* doc-since: the row's comment from a later known version on (6.12's
 * ioctl-number.rst writes "BLK* ioctls" beside 0x12, 6.1's nothing). */
struct doc_since {
	const char *version;	/* as written: "6.12" */
	const char *doc;	/* the Comments text from that version on */
	struct mark mark;	/* of the version key */
};

struct magic_row {
	unsigned int code;
	const char *code_text;	/* as written: 0x12 or 'E' */
	const char *seq;	/* as written: all, 00-1F, 80 */
	unsigned int first, last;
	const char **headers;
	size_t n_headers;
	const char *doc, *contact;
	/* doc in later versions, oldest first, each after the row's since
	 * and before its removed (check_lifetimes.c); n_doc_since 0 when absent */
	struct doc_since *doc_since;
	size_t n_doc_since;
	unsigned int accept;	/* bit set of warning rules */
	size_t *overlaps;	/* indexes of rows that share code and sequence numbers */
	size_t n_overlaps;
	unsigned int n_commands;
	/* ioctl-number.rst's Include File and Seq# cell lines, for the rows
	 * it lays out otherwise than one header per line; NULL when absent */
	const char **include_cell, **seq_cell;
	size_t n_include_cell, n_seq_cell;
	struct lifetime life;	/* since, removed */
	struct mark mark;
};

/* ------------------------------------------------------------ commands */

/* Warnings an entry may accept explicitly (accept: [...]). */
enum accept_rule {
	ACCEPT_OUTSIDE_RANGE = 1 << 0,
	ACCEPT_UNREGISTERED_MAGIC = 1 << 1,
	ACCEPT_SHARED_NUMBER = 1 << 2,
	ACCEPT_OVERLAP = 1 << 3,
	/* an error unless accepted: the kernel really passes a type too big
	 * for some layout's size field, and its number spills into dir bits */
	ACCEPT_SIZE_OVERFLOW = 1 << 4,
	/* a command that exists in a version where a command of the same
	 * number on one ABI no longer does: the dead number was reused */
	ACCEPT_REUSED_NUMBER = 1 << 5,
	/* a command that exists in a version where no magic-code row that
	 * covers it does (its since or removed outside the row's) */
	ACCEPT_ROW_VERSIONS = 1 << 6,
	/* the rules for new UAPI (check_types.c, check_new_uapi.c): errors
	 * unless the entry accepts them with an accept-reason */
	ACCEPT_PADDING = 1 << 7,
	ACCEPT_I386_ALIGNMENT = 1 << 8,
	ACCEPT_ABI_SIZE = 1 << 9,
};

#define ACCEPT_RULES 10
/* The rule name of each accept bit, by bit number: "outside-range", ... */
extern const char *const accept_rule_names[ACCEPT_RULES];

struct legacy {
	const char *written;	/* the third macro argument as first written */
	const char *passes;	/* the type the command really passes */
	const char *spell_as;	/* "bad", or a C type */
	const char *doc, *abi_break;
	struct mark mark, written_mark, spell_mark;
};

struct abi_number {
	bool present;		/* computed: every size needed was measured */
	bool variable_size;	/* the caller gives the size (size-param) */
	uint32_t number;	/* for families: every parameter 0 */
	uint32_t size;
	uint32_t unit;		/* sizeof(size-unit) on the ABI, or 0 */
};

struct header;

/* A command the header spells otherwise on some ABIs (an #if on the word
 * size): on the ABIs listed its nr is this one, or, for a command spelled
 * as another's name, it is this other command (alias_of; nr_text NULL). */
struct variant {
	const char **abis;
	size_t n_abis;
	unsigned int nr;
	const char *nr_text, *doc;
	const char *alias_of, *alias_root;	/* alias_root: as command's */
	struct mark mark, nr_mark, alias_mark, *abi_marks;	/* abi_marks: one per ABI */
};

struct command {
	const char *name, *doc;
	/* the same number for every command of one name (commands_by_name()
	 * gives them): the shared numbers compare names by it */
	size_t name_id;
	enum ioc_dir dir;
	unsigned int magic;
	const char *magic_text;
	unsigned int nr, nr_count;
	const char *nr_text;
	const char **params;
	size_t n_params;
	const char *nr_param, *size_param;
	/* size-unit: the size field holds size_param elements of this type
	 * (spidev's SPI_IOC_MESSAGE(N), N transfers), spelled TYPE[param] */
	const char *size_unit;
	/* unused-params: parameters the number does not depend on */
	const char **unused_params;
	size_t n_unused_params;
	const char *type;	/* the argument type, or NULL */
	/* size: a literal size, spelled _IOC(dir, magic, nr, size) (zcrypt's 0) */
	bool has_size;
	uint32_t size;
	const char *size_text;
	/* spelled as a plain number (number: 0x5401), not with the _IO* macros:
	 * dir, magic, nr and type are unset, the number is the same on every
	 * ABI that has the command, and passes names its argument (or NULL) */
	bool plain;
	/* a plain command spelled as another's name (#define SIOCINQ FIONREAD):
	 * no number of its own; on each ABI it carries the number of the
	 * command alias-of names there (numbers.c) */
	bool by_name;
	uint32_t number;
	const char *number_text, *passes;
	bool ioc;		/* spelled _IOC(dir, type, nr, size) */
	bool reserved;
	struct legacy *legacy;
	struct variant *variants;	/* other spellings, each on its own ABIs */
	size_t n_variants;
	unsigned int accept;
	/* accept-reason: why an accepted warning is right; a new command
	 * accepts a clash only with one (check_clashes.c) */
	const char *accept_reason;
	/* new: the pristine trees lack it, the series adds it (or its header
	 * is new); command_is_new() says either */
	bool is_new;
	struct mark new_mark;
	/* a missing size was reported: once per command (numbers.c) */
	bool size_reported;
	/* alias-of: another name of the same command, or NULL; alias_root is
	 * the end of the alias-of chain (check_names.c), the command's own name when
	 * it is no alias or the chain is broken */
	const char *alias_of, *alias_root;
	const struct header *header;
	struct lifetime life;	/* since, removed: the known versions it exists in */
	/* abi-change: the reason its number may change between known versions
	 * (a struct that grew), or NULL: then a change is an error */
	const char *abi_change;
	struct mark abi_change_mark;
	/* evidence: why the importer took a #define no _IO* macro marks as a
	 * command (magic-range, case-label FILE, block), as the spec says */
	const char **evidence;
	size_t n_evidence;
	/* kind: protocol-code: an _IO*-encoded code written into a driver's
	 * buffer (binder's BC_*, BR_*), never an ioctl request */
	bool protocol_code;
	/* one per ABI, in registry order: those of the newest version it exists in */
	struct abi_number *numbers;
	/* with two known versions or more: the numbers in each version
	 * (n_versions of them, NULL where it does not exist); NULL otherwise.
	 * by_version[life.end - 1] is numbers. */
	struct abi_number **by_version;
	/* C spelling, for the renderers */
	const char *macro;
	const char *args[4];
	size_t n_args;
	struct mark mark, type_mark, nr_mark, magic_mark, number_mark, alias_mark, size_mark;
};

/* A typedef a header uses that no exported header defines (xen's domid_t):
 * probes write `typedef TYPE NAME;` before including the header. */
struct ctypedef {
	const char *name;	/* an identifier */
	const char *type;	/* a C type name without array bounds */
	const char *doc;
	struct mark mark;
};

/* A named value: a constant (#define NAME VALUE of a header the registry
 * renders) or an enum's value. */
struct cconstant {
	const char *name, *value_text, *doc;
	uint32_t value;
	struct mark mark;
};

enum ctype_kind { CTYPE_STRUCT, CTYPE_UNION, CTYPE_ENUM };

/* A member of a registry struct or union: a fixed-width type or a registry
 * struct/union (nested, set by check_types()), len elements of it when len
 * is not 0. */
struct cmember {
	const char *name, *type, *doc;
	const char *len_text;	/* as written: 4 or a constant's name; NULL for none */
	uint32_t len;
	bool pad;		/* explicit padding */
	const struct ctype_def *nested;
	struct mark mark, type_mark, len_mark;
};

/* types: an argument type a header spec defines */
struct ctype_def {
	const char *name;	/* the tag */
	const char *c_name;	/* struct NAME, union NAME, enum NAME */
	const char *doc;
	enum ctype_kind kind;
	bool kernel_internal;	/* the kernel's compat layer defines it: probes only */
	bool broken;		/* a member's type did not resolve (check_types.c) */
	/* the rules for new UAPI it accepts (padding, i386-alignment), and why */
	unsigned int accept;
	const char *accept_reason;
	struct cmember *members;
	size_t n_members;
	struct cconstant *values;	/* of an enum */
	size_t n_values;
	const struct header *header;
	struct mark mark;
};

struct header {
	const char *path, *spec, *doc;
	struct mark path_mark;	/* of its header: value */
	bool is_new;		/* the tree has no such header: the registry renders it all */
	bool kernel_internal;	/* include/<path> of the tree, not UAPI: measured in kernel context */
	struct cconstant *constants;
	size_t n_constants;
	struct ctype_def *types;
	size_t n_types;
	const char *arch;	/* an arch/<arch>/include/uapi header: only that ARCH has it */
	const char **includes;
	size_t n_includes;
	bool header_test;	/* false: does not compile on its own (no-header-test) */
	const char **defines;		/* feature macros #defined before its includes */
	size_t n_defines;
	struct ctypedef *typedefs;	/* written before the header in every probe */
	size_t n_typedefs;
	const char **stub_includes;	/* unexported headers it includes: empty stand-ins */
	size_t n_stub_includes;
	const char *patch_prefix;	/* its patch's subject prefix ("fs:"), or NULL */
	struct command *commands;
	size_t n_commands;
	struct mark mark;
};

/* What a finding about command c names. */
static inline struct about command_about(const struct command *c)
{
	return (struct about){ c->name, c->header->path };
}

/*
 * Names that carry one number on one ABI.  Names whose alias-of chains end
 * in one command are one command under several names: group[k] is the
 * group of cmds[k], groups numbered in order of first appearance; a real
 * conflict is two groups or more.
 */
struct collision {
	const struct abi *abi;
	uint32_t number;
	uint64_t versions;	/* bit v: they share it in known version v (0: none known) */
	const struct command **cmds;
	size_t *group;
	/* members by group, each root first: group g is order[group_start[g]]
	 * up to order[group_start[g + 1]] (collision_member()) */
	size_t *order, *group_start;
	size_t n_cmds, n_groups;
};

static inline bool collision_conflict(const struct collision *col)
{
	return col->n_groups > 1;
}

/* "A = B, C": the names, those of one command joined by " = "; with_headers
 * adds " (path)" after each name (registry.c). */
void collision_names(const struct collision *col, struct strbuf *sb, bool with_headers);
/* The index in cmds of the k-th name of group g, the command's own name
 * (the end of the alias-of chain) first; -1 past the group's end. */
long collision_member(const struct collision *col, size_t g, size_t k);

/* ------------------------------------------------------------ lint findings (lint.h runs the lint) */

enum lint_class {
	LINT_LEGACY_SIZEOF, LINT_LEGACY_NUMBER, LINT_SIZE_T, LINT_POINTER, LINT_ABI_SIZE,
	LINT_ALIGNMENT, LINT_DIR_NONE_SIZE, LINT_SIZE_OVERFLOW, LINT_SHARED_NUMBER,
	LINT_UNREGISTERED, LINT_OUTSIDE_RANGE, LINT_MISSING_HEADER,
	LINT_CLASSES
};

struct lint_item {
	enum lint_class cls;
	const struct command *cmd;	/* NULL for rows and findings */
	const char *abi;		/* NULL when it holds on every ABI */
	const char *detail;
	struct mark mark;
};

struct registry {
	struct arena arena;	/* owns everything below, arrays included, but diags */
	struct diags diags;
	const char *spec_dir;
	struct kversion *versions;	/* versions.yaml, oldest first; none without it */
	size_t n_versions;
	struct layout *layouts;
	size_t n_layouts;
	struct abi *abis;
	size_t n_abis;
	struct magic_row *rows;
	size_t n_rows;
	struct header *headers;
	size_t n_headers;
	struct collision *collisions;
	size_t n_collisions;
	struct lint_item *lint;	/* registry_lint() */
	size_t n_lint, lint_cap;
	size_t lint_count[LINT_CLASSES];
	const char *lint_tree;	/* the kernel tree the lint looked at, or NULL */
	/* The kernel tree (--tree) the check holds the registry against, or
	 * NULL: set it between registry_load() and registry_check(). */
	const char *tree;
	bool linted;
	bool numbered;		/* registry_check() computed numbers and collisions */
	/* The commands whose number changes between known versions on some
	 * ABI: one per command and pair of consecutive versions it exists in
	 * where it differs (check_numbers.c); accepted by abi-change or an error. */
	struct abi_change {
		const struct command *cmd;
		size_t from, to;	/* version indexes */
		size_t *abis;	/* the ABIs where it differs */
		size_t n_abis;
	} *abi_changes;
	size_t n_abi_changes;
	/* Every file registry_load() read, as device and inode: no output may
	 * replace one, whatever name it is given by (registry_read_file()). */
	struct input_file {
		unsigned long long dev, ino;
	} *inputs;
	size_t n_inputs, cap_inputs;
};

/* Whether the run read the file path names (after symbolic links). */
bool registry_read_file(const struct registry *reg, const char *path);

/* The words of a lifetime (lifetime_text.c).  describe: decode's and the
 * decoder's, "6.1 only; removed in 6.12", "new in 6.12", "" when it exists
 * in every known version.  cell: the site's Versions cell, "6.1, 6.12",
 * "6.12 only".  sentence: the site's entry, "In 6.1 and 6.12", "New in
 * 6.12", "Removed in 6.12" (with three versions or more "... (in 6.1
 * only)").  Without known versions none is used. */
void lifetime_describe(const struct registry *reg, const struct lifetime *l, struct strbuf *sb);
void lifetime_cell(const struct registry *reg, const struct lifetime *l, struct strbuf *sb);
/* The cell of any set of known versions (bit v: versions[v]). */
void versions_cell(const struct registry *reg, uint64_t set, struct strbuf *sb);
void lifetime_sentence(const struct registry *reg, const struct lifetime *l, struct strbuf *sb);

/* ------------------------------------------------------------ lookups and order (registry.c, command.c) */

const struct abi *registry_abi(const struct registry *reg, const char *name);
const struct layout *registry_layout(const struct registry *reg, const char *name);
/* The layout whose field, as max gives it, is smallest; NULL without layouts. */
const struct layout *registry_smallest(const struct registry *reg,
				       uint32_t (*max)(const struct layout *));
void registry_release(struct registry *reg);
/* How many commands the registry holds, in every header. */
size_t registry_command_count(const struct registry *reg);
/* The order of two commands in the spec: headers by path, then entries. */
int command_spec_order(const struct command *a, const struct command *b);
/* Every command, sorted by name (then spec order): free() it.  Numbers
 * each command's name_id on the way. */
const struct command **commands_by_name(const struct registry *reg, size_t *n);
/* Added by the registry's series: marked new, or in a new header (command.c). */
bool command_is_new(const struct command *c);
/* The commands called name in v (from commands_by_name): *first and the count. */
size_t find_named(const struct command **v, size_t n, const char *name, size_t *first);

/* The C type whose sizeof() the command's number encodes (the legacy
 * spelling, or what a bad spelling's sizeof() sees), or NULL for none. */
const char *command_sized_type(const struct command *c);
/* What the command passes, as the renderers tell it apart: "type" (its
 * type), "array" (size-unit[size-param]), "caller-size" (size-param
 * alone), "size" (a size written as a number), "none" (_IO, plain). */
const char *command_arg_kind(const struct command *c);
/* The C text of what it passes, added to sb: its type, a legacy's passes,
 * a plain command's passes, UNIT[PARAM]; false for none. */
bool command_arg_text(const struct command *c, struct strbuf *sb);
/* How a legacy number is kept: "bad" (_IO*_BAD(written)), "same-type"
 * (spell-as is the type passed: its size happens to fit), "other-type"
 * (spelled with another type of the same size). */
const char *legacy_kind(const struct legacy *l);
/* "size_t" for sizeof(...), "int" for a number: what the macro's sizeof() sees. */
const char *legacy_written_type(const char *written);
/* The types measured on every ABI: what legacy_written_type() can return. */
#define MEASURE_BASE_TYPES 2
extern const char *const measure_base[MEASURE_BASE_TYPES];
/* The C types tools/measure-sizes sizes for the command on each ABI: its
 * type, a legacy spell-as that is a type, the legacy passes of a command
 * that is not reserved; never void, each once.  Returns their count. */
#define MEASURE_MAX 3
size_t command_measure(const struct command *c, const char *types[MEASURE_MAX]);

/* A C text of a command: type, size-unit, passes, legacy.passes,
 * legacy.spell-as (not bad) or legacy.written, with its grammar and
 * where it stands. */
struct c_text {
	const char *field, *text;
	enum grammar g;
	struct mark at;
};
/* Call fn for each C text command c has. */
void for_each_c_text(const struct command *c, void (*fn)(void *ctx, const struct c_text *t),
		     void *ctx);
/* Call fn for each name c's C texts use as a constant (an array bound, an
 * operand; not a type in sizeof()): the texts that follow their grammar. */
void for_each_c_constant(const struct command *c,
			 void (*fn)(void *ctx, const struct c_text *t, const char *name, size_t len),
			 void *ctx);

/*
 * Every command of the registry in spec order: headers by path, then their
 * entries.  c is a struct command *; the loop is two nested for loops, so
 * break leaves the current header's commands only.  No pointer arithmetic
 * on an empty header's NULL array (undefined, and UBSan says so).
 */
#define for_each_command(reg, c) \
	for (size_t c##_h = 0; c##_h < (reg)->n_headers; c##_h++) \
		for (struct command *c = (reg)->headers[c##_h].commands, \
		     *c##_end = (reg)->headers[c##_h].n_commands ? \
				c + (reg)->headers[c##_h].n_commands : c; \
		     c != c##_end; c++)

#endif
