// SPDX-License-Identifier: GPL-2.0
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static void out_of_memory(void)
{
	fputs("ioctlgen: error: out of memory\n", stderr);
	exit(1);
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

/* A capacity of at least n elements of size sz: cap doubled until it holds them. */
static size_t capacity_for(size_t cap, size_t n, size_t sz)
{
	while (cap < n) {
		if (cap > SIZE_MAX / 2)
			out_of_memory();
		cap = cap ? cap * 2 : 8;
	}
	if (cap > SIZE_MAX / sz)
		out_of_memory();
	return cap;
}

void grow(void *v, size_t *cap, size_t n, size_t sz)
{
	void **vp = v;

	if (n <= *cap)
		return;
	*cap = capacity_for(*cap, n, sz);
	*vp = xrealloc(*vp, *cap * sz);
}

/* Room for size bytes in the arena, not zeroed. */
static void *arena_take(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;
	size_t align = sizeof(max_align_t);

	size = (size + align - 1) / align * align;
	if (!b || b->size - b->used < size) {
		size_t bs = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		b = malloc(sizeof(*b) + bs);
		if (!b)
			out_of_memory();
		b->next = a->head;
		b->used = 0;
		b->size = bs;
		a->head = b;
	}
	void *p = (char *)b->data + b->used;

	b->used += size;
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	return memset(arena_take(a, size), 0, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_take(a, n + 1);	/* every byte written below */

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_glob_quote(struct arena *a, const char *s)
{
	char *out = arena_alloc(a, 2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	/* One vsnprintf() when the text fits buf, the usual case. */
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if ((size_t)n < sizeof(buf))
		return arena_strndup(a, buf, (size_t)n);
	char *p = arena_alloc(a, (size_t)n + 1);

	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *arena_slot(struct arena *a, void *v, size_t *cap, size_t n, size_t sz)
{
	char **vp = v;

	if (n >= *cap) {
		size_t c = capacity_for(*cap, n + 1, sz);
		char *p = arena_alloc(a, c * sz);

		if (*cap)
			memcpy(p, *vp, *cap * sz);
		*vp = p;
		*cap = c;
	}
	return memset(*vp + n * sz, 0, sz);
}

void arena_release(struct arena *a)
{
	while (a->head) {
		struct arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

/* Room for n more bytes and the terminating NUL. */
void sb_grow(struct strbuf *sb, size_t n)
{
	size_t need = sb->len + n + 1;

	/* most buffers hold a line or a list of names: start with room for it */
	grow(&sb->buf, &sb->cap, need < 64 ? 64 : need, 1);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* One pass when the text fits the room left, the usual case. */
	grow(&sb->buf, &sb->cap, sb->len + 64, 1);
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if ((size_t)n >= sb->cap - sb->len) {
		grow(&sb->buf, &sb->cap, sb->len + (size_t)n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int atomic_open(struct atomic_file *f, const char *path)
{
	size_t plen = strlen(path);
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
	struct stat st;
	int saved;

	f->path = path;
	/* a file replaced keeps its permissions, as a shell's > leaves them
	 * (not set-id bits: the content is new) */
	f->mode = !stat(path, &st) && S_ISREG(st.st_mode) ? (unsigned int)st.st_mode & 0777 : 0644;
	f->tmp = xrealloc(NULL, plen + 16);
	/* .name.XXXXXX beside the target, so rename() stays on one file system;
	 * the name cut short, so that a 255-byte target's temp name fits too. */
	memcpy(f->tmp, path, dirlen);
	snprintf(f->tmp + dirlen, plen - dirlen + 16, ".%.200s.XXXXXX", path + dirlen);
	f->fd = mkstemp(f->tmp);
	if (f->fd >= 0)
		return 0;
	saved = errno;
	free(f->tmp);
	f->tmp = NULL;
	errno = saved;
	return -1;
}

int atomic_write(struct atomic_file *f, const char *data, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t w = write(f->fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
}

int atomic_commit(struct atomic_file *f)
{
	if (fchmod(f->fd, (mode_t)f->mode) || fsync(f->fd))
		return -1;
	if (close(f->fd)) {
		f->fd = -1;
		return -1;
	}
	f->fd = -1;
	if (rename(f->tmp, f->path))
		return -1;
	free(f->tmp);
	f->tmp = NULL;
	return 0;
}

void atomic_abort(struct atomic_file *f)
{
	int saved = errno;

	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	f->tmp = NULL;
	f->fd = -1;
	errno = saved;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	struct atomic_file f;

	if (atomic_open(&f, path))
		return -1;
	if (atomic_write(&f, data, len) || atomic_commit(&f)) {
		atomic_abort(&f);
		return -1;
	}
	return 0;
}

char *read_file(const char *path, size_t *len)
{
	return read_file_id(path, len, NULL, NULL);
}

char *read_file_id(const char *path, size_t *len, unsigned long long *dev,
		   unsigned long long *ino)
{
	struct strbuf sb = { 0 };
	char buf[65536];
	int fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return NULL;
	}
	if (dev)
		*dev = (unsigned long long)st.st_dev;
	if (ino)
		*ino = (unsigned long long)st.st_ino;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;

			close(fd);
			sb_release(&sb);
			errno = saved;
			return NULL;
		}
		if (r == 0)
			break;
		sb_add(&sb, buf, (size_t)r);
	}
	close(fd);
	if (!sb.buf)
		sb_add(&sb, "", 0);
	*len = sb.len;
	return sb.buf;
}
