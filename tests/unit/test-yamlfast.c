// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test: the fast path of the YAML reader (generator/yamlfast.c) gives
 * libyaml's tree, or gives up.  Over every file named, and over variants of
 * each that the fast path reads (a byte deleted, a byte put in: ':', '#',
 * ' ', '-', '\n', ... at places picked by a fixed seed), and over a few
 * hand-written edges: whenever the fast path returns a tree, libyaml must
 * read the same text without error and give the same tree, kinds, texts,
 * styles and marks included.  libyaml is the reference: its tree is the
 * expectation, never the fast path's.
 * Usage: test-yamlfast FILE...     (TAP output)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yamltree.h"

static int n_test, n_fail;
static size_t n_fast, n_slow, n_variants;

static void ok(bool cond, const char *fmt, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - ", cond ? "" : "not ", n_test);
	printf(fmt, what);
	putchar('\n');
}

static bool same(const struct ynode *x, const struct ynode *y, char *why, size_t whylen)
{
	if (x->kind != y->kind || x->n != y->n || x->mark.line != y->mark.line ||
	    x->mark.col != y->mark.col) {
		snprintf(why, whylen, "node at %u:%u (kind %d, %zu children) is %u:%u (kind %d, %zu) for libyaml",
			 x->mark.line, x->mark.col, x->kind, x->n, y->mark.line, y->mark.col, y->kind, y->n);
		return false;
	}
	if (x->kind == Y_SCALAR &&
	    (x->len != y->len || x->plain != y->plain || memcmp(x->str, y->str, x->len))) {
		snprintf(why, whylen, "scalar at %u:%u '%s' is '%s' for libyaml", x->mark.line,
			 x->mark.col, x->str, y->str);
		return false;
	}
	for (size_t i = 0; i < x->n; i++)
		if (!same(x->kids[i], y->kids[i], why, whylen))
			return false;
	return true;
}

static bool same_diags(const struct diags *x, const struct diags *y, char *why, size_t whylen)
{
	if (x->n != y->n || x->errors != y->errors) {
		snprintf(why, whylen, "%zu findings (%u errors), %zu (%u) for libyaml", x->n, x->errors,
			 y->n, y->errors);
		return false;
	}
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].mark.line != y->v[i].mark.line || x->v[i].mark.col != y->v[i].mark.col ||
		    strcmp(x->v[i].msg, y->v[i].msg)) {
			snprintf(why, whylen, "finding %u:%u '%s' is %u:%u '%s' for libyaml",
				 x->v[i].mark.line, x->v[i].mark.col, x->v[i].msg,
				 y->v[i].mark.line, y->v[i].mark.col, y->v[i].msg);
			return false;
		}
	return true;
}

/* Empty when both agree (or the fast path gave up), else what differs:
 * ytree_parse(), which takes the fast path, against libyaml alone. */
static const char *compare(const char *name, const char *data, size_t len)
{
	static char why[512];
	struct arena a = { 0 }, t = { 0 }, a2 = { 0 }, t2 = { 0 };
	struct diags d = { 0 }, d2 = { 0 };
	const struct ynode *fast, *slow;

	why[0] = '\0';
	if (!yfast_parse(&a, &t, name, data, len)) {
		n_slow++;
		goto out;
	}
	n_fast++;
	fast = ytree_parse(&a, &t, &d, name, data, len);
	slow = ytree_parse_libyaml(&a2, &t2, &d2, name, data, len);
	if (!same_diags(&d, &d2, why, sizeof(why)))
		;
	else if (!fast != !slow)
		snprintf(why, sizeof(why), "a tree from one reader only");
	else if (fast)
		same(fast, slow, why, sizeof(why));
	diags_release(&d2);
out:
	diags_release(&d);
	arena_release(&a);
	arena_release(&t);
	arena_release(&a2);
	arena_release(&t2);
	return why;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (size_t got; (buf = xrealloc(buf, cap += 65536)),
	     (got = fread(buf + *len, 1, cap - *len, f)) > 0;)
		*len += got;
	fclose(f);
	return buf;
}

/* Variants of a text the fast path reads: a byte deleted, or one put in. */
static const char *variants(const char *name, const char *data, size_t len, unsigned int *seed)
{
	static const char put[] = ":#- \n'\"[{>|?&*!%@`\t,.~0";
	char *v = xrealloc(NULL, len + 2);

	for (int i = 0; i < 200 && len; i++) {
		size_t at = (size_t)rand_r(seed) % len, vlen;
		const char *why;

		memcpy(v, data, at);
		if (i % 3 == 0) {
			memcpy(v + at, data + at + 1, len - at - 1);
			vlen = len - 1;
		} else {
			v[at] = put[(size_t)rand_r(seed) % (sizeof(put) - 1)];
			memcpy(v + at + 1, data + at, len - at);
			vlen = len + 1;
		}
		n_variants++;
		why = compare(name, v, vlen);
		if (*why) {
			static char msg[700];

			size_t from = at > 40 ? at - 40 : 0;

			snprintf(msg, sizeof(msg), "variant %d (at byte %zu): %s\n# %.*s", i, at, why,
				 (int)(vlen - from < 80 ? vlen - from : 80), v + from);
			free(v);
			return msg;
		}
	}
	free(v);
	return "";
}

/* Edges of the subset, each for both readers. */
static const char *const edges[] = {
	"a: 1\n", "a: 1", "a:\n  b: 1\n", "a:\n- x\n- y\nb: 2\n", "- a: 1\n  b: 2\n- c\n",
	"a: 1\n  b: 2\n", "a:\n  b: 1\n c: 2\n", "a: b: c\n", "a:b: c\n", "a :1\n", "a: 1 \n",
	"a: x #c\n", "# only\n", "\n", "a:\n", "a:\nb: 1\n", "- - x\n", "-  a\n", "-\n  a\n",
	"--- \na: 1\n", "---\na: 1\n", "a: 1\n...\n", "a: 1\na: 2\n", "k[1 + 2]: 3\n", "a: -1\n",
	"a:\n  - x: 1\n    y:\n      - z\n", "a:\n  -\n", "? a\n: b\n", "a: [1]\n", "a: 'q'\n",
	"a:  two  spaces\n", "  a: 1\n  b: 2\n", "a: 1\n# c\n  # d\nb: 2\n", "- x\n-y\n",
	"a: 1\n\tb: 2\n", "a: \xc3\xa9\n", "a: ~\n", "a, b: c\n", "a: b, c\n", "{a: 1}\n",
	"a:\n    - x\n  - y\n", "a:\n  - x\n - y\n", "- x\nb: 1\n", "a:\n- x\n  - y\n",
	"a: \"x: y # z\"\n", "a: ''\n", "a: \"\"\n", "a: 'it''s'\n", "a: \"\\n\"\n", "- \"a: b\"\n",
	"a: \"x\" # c\n", "a: \"x\"y\"\n", "\"a\": 1\n", "a: \"  b  \"\n", "a: b:c\n", "- a:b\n",
	"a: 'x\n  y'\n", "a: \"x\n", "a:b\n",
	"a: >-\n  x y\n  z: - #\nb: 1\n", "a: |-\n  x\n  y\n", "a: >-\n  x\n  # c\nb: 1\n",
	"a: >-\n  x\n\n  y\n", "a: >-\n  x\n    y\n", "a: >-\nb: 1\n", "a: >-\n  x\n", "a: >-\n  x",
	"a: >-\n  x\n  \n", "a: >-\n  x\n# c\n", "- a: >-\n    x\n    y\n  b: 1\n", "a: >\n  x\n",
	"a: [x, y]\n", "a: []\n", "a: [ x]\n", "a: [x ]\n", "a: [x,y]\n", "a: [x,  y]\n", "a: [x, ]\n",
	"a: [x, [y]]\n", "a: [x, 'y']\n", "a: [x y, z]\n", "a: [x] # c\n", "a: [x:y]\n", "a: [x]]\n",
	"- a: [x]\n  b: [y, z]\n", "a: [x, y\n  , z]\n", "a: [-x]\n", "a: [x, {y}]\n",
	"a: >-\n  x\n# c\nb: 1\n", "a: >-\n  x\n # c\nb: 1\n", "a: >-\n  x\n  # c\n", "a: >-\n  x\n #\n",
	"a:\n  b: >-\n    x\n   # c\n  d: 1\n", "a:\n  b: >-\n    x\n  # c\n  d: 1\n", "a: -x\n", "a: -\n",
	"a: [-x, -]\n", "-x: 1\n", "a: 1\n-x: 2\n", "a: - x\n", "a: --- x\n", "a: >-\n  x\n\n# c\n",
	"a: x#y\n", "a: x #y\n", "a#: 1\n", "a #: 1\n", "- x#\n", "a: [x#]\n", "a: x:#\n", "a: x: #\n",
	"a: [\"x, y\", 'z']\n", "a: [\"x\"]\n", "a: [\"x\" ]\n", "a: [\"x\"y]\n", "a: ['x''y']\n", "a: [\"x]\n",
	"a: [\"\"]\n", "a: [\"a\\\"b\"]\n", "a: [x, \"y\"]\n", "a: [\"x\",\"y\"]\n",
	"\"a\": 1\n", "'a': 1\n", "\"a\":1\n", "\"a\" : 1\n", "\"a\":\n  b: 1\n", "\"a: b\": 1\n", "\"a\"x: 1\n",
	"- \"a\": 1\n  \"b\": 2\n", "\"a\\\"\": 1\n", "\"a\n",
	"a:\n  b: >-\n   x\n  c: 1\n", "a:\n  b: >-\n  x\n", "a: >- # c\n  x\n", "a: >-\n x\n  y\n",
};

int main(int argc, char **argv)
{
	unsigned int seed = 30;

	for (size_t i = 0; i < sizeof(edges) / sizeof(*edges); i++) {
		const char *why = compare("edge", edges[i], strlen(edges[i]));

		ok(!*why, "edge %s", why);
	}
	/* nested to the depth limit and past it, a flow sequence at the bottom */
	for (int depth = 28; depth <= 34; depth++) {
		char text[4096], *p = text, what[64];
		const char *why;

		for (int d = 0; d < depth; d++)
			p += sprintf(p, "%*sa:\n", 2 * d, "");
		sprintf(p, "%*sk: [x, y]\n", 2 * depth, "");
		why = compare("deep", text, strlen(text));
		snprintf(what, sizeof(what), "%d levels deep%s", depth, *why ? ": " : "");
		ok(!*why, "edge %s", *why ? why : what);
	}
	for (int i = 1; i < argc; i++) {
		size_t len, before = n_fast;
		char *data = slurp(argv[i], &len);
		const char *why;
		char msg[1024];

		if (!data) {
			ok(false, "%s: cannot read", argv[i]);
			continue;
		}
		why = compare(argv[i], data, len);
		if (!*why && n_fast > before)
			why = variants(argv[i], data, len, &seed);
		snprintf(msg, sizeof(msg), "%s%s%s", argv[i], *why ? ": " : "", why);
		ok(!*why, "%s", msg);
		free(data);
	}
	printf("# fast path: %zu texts, libyaml alone: %zu, variants tried: %zu\n", n_fast, n_slow,
	       n_variants);
	printf("1..%d\n", n_test);
	return n_fail != 0;
}
