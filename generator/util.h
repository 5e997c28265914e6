/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers: an arena that owns everything the registry holds, a string buffer. */
#ifndef IOCTLGEN_UTIL_H
#define IOCTLGEN_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct arena_block;

/* Everything loaded from a spec lives in one arena and is freed at once. */
struct arena {
	struct arena_block *head;
};

void *arena_alloc(struct arena *a, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void arena_release(struct arena *a);
/* s with glob(3)'s special characters backslash-quoted: a tree path given
 * by the user is a path, never a pattern. */
char *arena_glob_quote(struct arena *a, const char *s);
/* Room in *v, an array of *cap elements of size sz in the arena, for
 * element n (a larger copy if need be; the old one goes with the arena):
 * returns it, zeroed.  The caller counts it in when it keeps it. */
void *arena_slot(struct arena *a, void *v, size_t *cap, size_t n, size_t sz);

struct strbuf {
	char *buf;
	size_t len, cap;
};

void sb_grow(struct strbuf *sb, size_t n);

/* Room for n more bytes and the NUL: where they go.  Write them there,
 * then count them in with sb_wrote(). */
static inline char *sb_room(struct strbuf *sb, size_t n)
{
	if (sb->cap - sb->len < n + 1)
		sb_grow(sb, n);
	return sb->buf + sb->len;
}

static inline void sb_wrote(struct strbuf *sb, size_t n)
{
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* Inline: the model is megabytes of short pieces, and a call per piece
 * was a third of the time `ioctlgen model` takes. */
static inline void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	memcpy(sb_room(sb, n), s, n);
	sb_wrote(sb, n);
}

static inline void sb_putc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

/* A string literal, its length known when compiled. */
#define sb_lit(sb, literal) sb_add(sb, literal, sizeof(literal) - 1)

/* Inline too: the model's keys are literals, whose length is then known. */
static inline void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_release(struct strbuf *sb);

void *xrealloc(void *p, size_t size);

/* Grow *v (of *cap elements of size sz) so that it holds at least n. */
void grow(void *v, size_t *cap, size_t n, size_t sz);

/*
 * A file written through a temporary file in the same directory and a
 * rename, so a reader (or an interrupted run) sees the old or the new file,
 * never half of one.  Each returns 0, or -1 with errno set; after a
 * failure, or to give up, atomic_abort() removes the temporary file.
 */
struct atomic_file {
	const char *path;
	char *tmp;
	int fd;
	unsigned int mode;	/* the permissions path had, 0644 for a new file */
};

int atomic_open(struct atomic_file *f, const char *path);
int atomic_write(struct atomic_file *f, const char *data, size_t len);
/* Sync the data and rename the temporary file over path. */
int atomic_commit(struct atomic_file *f);
void atomic_abort(struct atomic_file *f);
/* All of it for data at hand. */
int write_file_atomic(const char *path, const char *data, size_t len);

/*
 * Why path may not be written (output_target.c): NULL when it does not exist,
 * is a regular file or a symbolic link to one, else what it is ("a FIFO",
 * "a symbolic link to a device").  For a link to a regular file *through is
 * the file it names, malloc()ed: write that one, and the link stays.
 */
const char *output_target(const char *path, char **through);

/* Read a whole file, NUL-terminated. Returns NULL with errno set. */
char *read_file(const char *path, size_t *len);
/* The same, and the file's device and inode in *dev and *ino (when not NULL):
 * what the file opened was, whatever name led to it. */
char *read_file_id(const char *path, size_t *len, unsigned long long *dev,
		   unsigned long long *ino);

#endif
