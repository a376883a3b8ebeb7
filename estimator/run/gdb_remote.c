/* run/gdb_remote.c — GDB remote serial protocol client, see gdb_remote.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/gdb_remote.h"

enum { CHUNK = 1024 }; /* bytes per "m" request: QEMU answers up to 2048 */

void roi_gdb_init(struct roi_gdb *g, int fd, roi_wait_fn *wait, void *ctx, const char *peer)
{
	memset(g, 0, sizeof *g);
	g->fd = fd;
	g->wait = wait;
	g->ctx = ctx;
	g->peer = peer;
}

static int get_byte(struct roi_gdb *g, char *c, struct roi_err *err)
{
	while (g->pos == g->len) {
		ssize_t n;

		if (g->wait(g->ctx, g->fd, err) != 0)
			return -1;
		n = read(g->fd, g->in, sizeof g->in);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g->closed = true;
			return roi_err_set(err, "%s: connection closed%s%s", g->peer, n ? ": " : "",
					   n ? strerror(errno) : "");
		}
		g->len = (size_t)n;
		g->pos = 0;
	}
	*c = g->in[g->pos++];
	return 0;
}

static int put(struct roi_gdb *g, const char *s, size_t n, struct roi_err *err)
{
	while (n > 0) {
		ssize_t w = send(g->fd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			g->closed = true;
			return roi_err_set(err, "%s: connection lost: %s", g->peer, strerror(errno));
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int roi_gdb_send(struct roi_gdb *g, const char *data, struct roi_err *err)
{
	char pkt[512];
	unsigned sum = 0;
	int n;

	for (const char *p = data; *p; p++)
		sum += (unsigned char)*p;
	n = snprintf(pkt, sizeof pkt, "$%s#%02x", data, sum & 0xff);
	if (n < 0 || (size_t)n >= sizeof pkt)
		return roi_err_set(err, "%s: request too long", g->peer);
	for (;;) {
		char c;

		if (put(g, pkt, (size_t)n, err) != 0)
			return -1;
		do {
			if (get_byte(g, &c, err) != 0)
				return -1;
		} while (c != '+' && c != '-');
		if (c == '+')
			return 0;
	}
}

int roi_gdb_recv(struct roi_gdb *g, char *data, size_t size, struct roi_err *err)
{
	for (;;) {
		unsigned sum = 0;
		size_t n = 0;
		char c, cs[2];

		do {
			if (get_byte(g, &c, err) != 0)
				return -1;
		} while (c != '$');
		for (;;) {
			if (get_byte(g, &c, err) != 0)
				return -1;
			if (c == '#')
				break;
			sum += (unsigned char)c;
			if (c == '}') { /* escaped byte */
				if (get_byte(g, &c, err) != 0)
					return -1;
				sum += (unsigned char)c;
				c ^= 0x20;
			} else if (c == '*' && n > 0) { /* run-length: the previous byte, COUNT-29 more times */
				if (get_byte(g, &c, err) != 0)
					return -1;
				sum += (unsigned char)c;
				for (int r = c - 29; r > 0 && n + 1 < size; r--, n++)
					data[n] = data[n - 1];
				continue;
			}
			if (n + 1 >= size)
				return roi_err_set(err, "%s: reply longer than %zu bytes", g->peer, size - 1);
			data[n++] = c;
		}
		if (get_byte(g, &cs[0], err) != 0 || get_byte(g, &cs[1], err) != 0)
			return -1;
		data[n] = '\0';
		if (hexval(cs[0]) * 16 + hexval(cs[1]) == (int)(sum & 0xff)) {
			put(g, "+", 1, NULL); /* a server that has said its last word ("W00") may be gone */
			return 0;
		}
		if (put(g, "-", 1, err) != 0) /* damaged: ask again */
			return -1;
	}
}

int roi_gdb_exchange(struct roi_gdb *g, const char *request, char *reply, size_t size, struct roi_err *err)
{
	if (roi_gdb_send(g, request, err) != 0 || roi_gdb_recv(g, reply, size, err) != 0)
		return -1;
	if (reply[0] == 'E' && strlen(reply) == 3 && hexval(reply[1]) >= 0 && hexval(reply[2]) >= 0)
		return roi_err_set(err, "%s: %.40s: error %s", g->peer, request, reply + 1);
	return 0;
}

int roi_gdb_read_memory(struct roi_gdb *g, uint64_t addr, void *out, size_t len, struct roi_err *err)
{
	unsigned char *p = out;
	char req[64], reply[2 * CHUNK + 1];

	while (len > 0) {
		size_t n = len < CHUNK ? len : CHUNK;

		snprintf(req, sizeof req, "m%llx,%zx", (unsigned long long)addr, n);
		if (roi_gdb_exchange(g, req, reply, sizeof reply, err) != 0)
			return -1;
		if (strlen(reply) != 2 * n)
			return roi_err_set(err, "%s: %s: %zu hex digits for %zu bytes", g->peer, req, strlen(reply), n);
		for (size_t i = 0; i < n; i++) {
			int hi = hexval(reply[2 * i]), lo = hexval(reply[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return roi_err_set(err, "%s: %s: reply is not hex", g->peer, req);
			p[i] = (unsigned char)(hi * 16 + lo);
		}
		p += n;
		addr += n;
		len -= n;
	}
	return 0;
}
