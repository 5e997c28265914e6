// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <string.h>

#include "cli.h"

static int out_of_range(const char *what, uint64_t v, unsigned int bits, const struct layout *l)
{
	fprintf(stderr, "ioctlgen encode: error: %s %llu does not fit the %u-bit %s field of layout '%s'\n",
		what, (unsigned long long)v, bits, what, l->name);
	return EXIT_DATA;
}

int cmd_encode(int argc, char **argv)
{
	const char *abi_name = NULL, *layout_name = NULL, *spec = DEFAULT_SPEC_DIR;
	const struct cli_opt opts[] = {
		CLI_VALUE("abi", 'a', &abi_name),
		CLI_VALUE("layout", 'l', &layout_name),
		CLI_END };
	const struct layout *l = NULL;
	uint64_t type, nr, size;
	struct registry reg;
	enum ioc_dir dir;
	int rc = 0;

	if (cli_options("encode", argc, argv, ":", opts, &spec, &rc))
		return rc;
	if (!abi_name == !layout_name)
		return usage_error("encode", "give --abi ABI (or --layout LAYOUT)");
	if (operand_count("encode", argc, argv, 4, "DIR TYPE NR SIZE"))
		return EXIT_USAGE;
	if (!parse_dir(argv[optind], &dir))
		return usage_error("encode", "DIR '%s' must be none, read, write or read-write",
				   argv[optind]);
	if (!parse_cli_uint(argv[optind + 1], &type))
		return usage_error("encode", "TYPE '%s' must be a number or 'c'", argv[optind + 1]);
	if (!parse_cli_uint(argv[optind + 2], &nr))
		return usage_error("encode", "NR '%s' must be a number", argv[optind + 2]);
	if (!parse_cli_uint(argv[optind + 3], &size))
		return usage_error("encode", "SIZE '%s' must be a number", argv[optind + 3]);

	if (load_quiet(&reg, spec, NULL)) {
		registry_release(&reg);
		return EXIT_DATA;
	}
	if (abi_name) {
		const struct abi *abi = registry_abi(&reg, abi_name);

		l = abi ? abi->layout : NULL;
	} else {
		l = registry_layout(&reg, layout_name);
	}
	if (!l) {
		rc = usage_error("encode", "unknown %s '%s'", abi_name ? "ABI" : "layout",
				 abi_name ? abi_name : layout_name);
	} else if (type > layout_max_type(l)) {
		rc = out_of_range("type", type, l->type_bits, l);
	} else if (nr > layout_max_nr(l)) {
		rc = out_of_range("nr", nr, l->nr_bits, l);
	} else if (size > layout_max_size(l)) {
		rc = out_of_range("size", size, l->size_bits, l);
	} else {
		printf("0x%08x\n", layout_encode(l, dir, (unsigned int)type, (unsigned int)nr,
						 (unsigned int)size));
	}
	registry_release(&reg);
	return rc;
}
