// SPDX-License-Identifier: GPL-2.0
/*
 * The example driver's ioctls from user space (tests/example): built static
 * against the header the registry renders, once per ABI the verification
 * guest runs (-m64, -m32, -mx32), with -include of the registry's numbers
 * for that ABI (REGISTRY_* and REGISTRY_ABI, written by tests/verify/run
 * from the example registry's model).  One line per test:
 *
 *	VERIFY ok|not ok example <abi> <test> [# detail]
 *
 * the ids tests/example/expected lists.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ioctl_example.h>

/*
 * The layout a header without the explicit __pad members would have: i386
 * aligns __u64 to 4 bytes, so there they are 36 and 12 bytes, and their
 * commands would have other numbers than on x86_64.
 */
struct naive_config {
	__u32 flags;
	struct ioctl_example_range range;
	char name[IOCTL_EXAMPLE_NAME_LEN];
};

struct naive_xform {
	__u32 op;
	__u64 value;
};

static int fd = -1;

static void result(int ok, const char *test, const char *fmt, ...)
{
	char detail[256] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	printf("VERIFY %s example %s %s%s%s\n", ok ? "ok" : "not ok", REGISTRY_ABI, test,
	       *detail ? " # " : "", detail);
	fflush(stdout);
}

/* ioctl() as 0 or the errno it failed with. */
static int xioctl(unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static void test_numbers(void)
{
	static const struct {
		const char *name;
		unsigned int header, registry;
	} n[] = {
		{ "IOCTL_EXAMPLE_RESET", IOCTL_EXAMPLE_RESET, REGISTRY_IOCTL_EXAMPLE_RESET },
		{ "IOCTL_EXAMPLE_SET_CONFIG", IOCTL_EXAMPLE_SET_CONFIG,
		  REGISTRY_IOCTL_EXAMPLE_SET_CONFIG },
		{ "IOCTL_EXAMPLE_GET_CONFIG", IOCTL_EXAMPLE_GET_CONFIG,
		  REGISTRY_IOCTL_EXAMPLE_GET_CONFIG },
		{ "IOCTL_EXAMPLE_XFORM", IOCTL_EXAMPLE_XFORM, REGISTRY_IOCTL_EXAMPLE_XFORM },
	};
	char bad[128] = "";
	size_t i;

	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (n[i].header != n[i].registry && !*bad)
			snprintf(bad, sizeof(bad), "%s: header 0x%08x, registry 0x%08x",
				 n[i].name, n[i].header, n[i].registry);
	if (*bad) {
		result(0, "numbers are the registry's", "%s", bad);
		return;
	}
	result(1, "numbers are the registry's",
	       "0x%08x 0x%08x 0x%08x 0x%08x; sizeof config %zu, xform %zu (%zu, %zu without __pad)",
	       n[0].header, n[1].header, n[2].header, n[3].header,
	       sizeof(struct ioctl_example_config), sizeof(struct ioctl_example_xform),
	       sizeof(struct naive_config), sizeof(struct naive_xform));
}

static void test_round_trip(void)
{
	struct ioctl_example_config set, get;
	int err;

	memset(&set, 0, sizeof(set));
	set.range.start = 0x0123456789abcdefULL;
	set.range.length = 4096;
	snprintf(set.name, sizeof(set.name), "ex-%s", REGISTRY_ABI);
	err = xioctl(IOCTL_EXAMPLE_SET_CONFIG, &set);
	result(!err, "IOCTL_EXAMPLE_SET_CONFIG (_IOW)", err ? "%s" : NULL, strerror(err));

	memset(&get, 0xff, sizeof(get));
	err = xioctl(IOCTL_EXAMPLE_GET_CONFIG, &get);
	if (err)
		result(0, "IOCTL_EXAMPLE_GET_CONFIG (_IOR) returns what was set", "%s",
		       strerror(err));
	else
		result(!memcmp(&set, &get, sizeof(set)),
		       "IOCTL_EXAMPLE_GET_CONFIG (_IOR) returns what was set",
		       "start 0x%llx, length %llu, name \"%.*s\"",
		       (unsigned long long)get.range.start, (unsigned long long)get.range.length,
		       IOCTL_EXAMPLE_NAME_LEN, get.name);
}

static void test_xform(const char *test, __u32 op, __u64 in, __u64 want)
{
	struct ioctl_example_xform x = { .op = op, .value = in };
	int err = xioctl(IOCTL_EXAMPLE_XFORM, &x);

	if (err)
		result(0, test, "%s", strerror(err));
	else
		result(x.value == want && x.op == op, test, "0x%llx -> 0x%llx (want 0x%llx)",
		       (unsigned long long)in, (unsigned long long)x.value,
		       (unsigned long long)want);
}

static void test_reset(void)
{
	static const struct ioctl_example_config zero;
	struct ioctl_example_config get;
	int err = xioctl(IOCTL_EXAMPLE_RESET, NULL);

	if (!err) {
		memset(&get, 0xff, sizeof(get));
		err = xioctl(IOCTL_EXAMPLE_GET_CONFIG, &get);
	}
	if (err)
		result(0, "IOCTL_EXAMPLE_RESET (_IO) zeroes the configuration", "%s",
		       strerror(err));
	else
		result(!memcmp(&get, &zero, sizeof(get)),
		       "IOCTL_EXAMPLE_RESET (_IO) zeroes the configuration", NULL);
}

static void test_einval(void)
{
	struct ioctl_example_config c;
	struct ioctl_example_xform x = { .op = 99 };
	int pad, op;

	memset(&c, 0, sizeof(c));
	c.__pad = 1;
	pad = xioctl(IOCTL_EXAMPLE_SET_CONFIG, &c);
	op = xioctl(IOCTL_EXAMPLE_XFORM, &x);
	result(pad == EINVAL && op == EINVAL, "EINVAL for a non-zero __pad and an unknown op",
	       "__pad: %s, op 99: %s", strerror(pad), strerror(op));
}

static void test_enotty(void)
{
	unsigned int unknown = _IO(0xE7, 0x0f);
	unsigned int naive = _IOW(0xE7, 1, struct naive_config);
	int err = xioctl(unknown, NULL);

	result(err == ENOTTY, "ENOTTY for an unknown command", "0x%08x: %s", unknown,
	       strerror(err));
	if (naive == IOCTL_EXAMPLE_SET_CONFIG) {	/* nothing to tell apart here */
		result(1, "ENOTTY for the number of a config without __pad",
		       "SKIP without __pad the config is %zu bytes here too: 0x%08x is the registry's number on this ABI",
		       sizeof(struct naive_config), naive);
		return;
	}
	err = xioctl(naive, &(struct naive_config){ 0 });
	result(err == ENOTTY, "ENOTTY for the number of a config without __pad",
	       "0x%08x, %zu bytes, not 0x%08x: %s", naive, sizeof(struct naive_config),
	       IOCTL_EXAMPLE_SET_CONFIG, strerror(err));
}

int main(void)
{
	fd = open("/dev/ioctl_example", O_RDWR);
	result(fd >= 0, "open /dev/ioctl_example", fd < 0 ? "%s" : NULL, strerror(errno));
	test_numbers();
	if (fd < 0)
		return 1;
	test_round_trip();
	test_xform("IOCTL_EXAMPLE_XFORM (_IOWR) IOCTL_EXAMPLE_OP_ADD_START",
		   IOCTL_EXAMPLE_OP_ADD_START, 1, 0x0123456789abcdefULL + 1);
	test_xform("IOCTL_EXAMPLE_XFORM (_IOWR) IOCTL_EXAMPLE_OP_SWAB", IOCTL_EXAMPLE_OP_SWAB,
		   0x0102030405060708ULL, 0x0807060504030201ULL);
	test_reset();
	test_einval();
	test_enotty();
	close(fd);
	return 0;
}
