/* run/gdb_remote.h — the client side of GDB's remote serial protocol, as much of it as a runner needs to
 * stop an emulator at a breakpoint and read registers and memory: packets "$DATA#CS", each
 * acknowledged with '+'. No binary transfers, no no-ack mode. */
#ifndef ROI_GDB_REMOTE_H
#define ROI_GDB_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Blocks until fd is readable (data or end of file) or the caller's deadline passes: 0, or -1
 * with err set. */
typedef int roi_wait_fn(void *ctx, int fd, struct roi_err *err);

struct roi_gdb {
	int fd;
	roi_wait_fn *wait;
	void *ctx;
	const char *peer;       /* names the server in messages: "qemu-system-arm" */
	bool closed;            /* the server closed the connection */
	char in[1024];          /* received, not yet consumed */
	size_t len, pos;
};

void roi_gdb_init(struct roi_gdb *g, int fd, roi_wait_fn *wait, void *ctx, const char *peer);

/* Sends one packet and waits for its '+'. */
int roi_gdb_send(struct roi_gdb *g, const char *data, struct roi_err *err);

/* Receives the next packet into data (NUL-terminated, run-length encoding expanded) and
 * acknowledges it. Errors: "PEER: connection closed" (and g->closed), a bad checksum, a packet
 * longer than size. */
int roi_gdb_recv(struct roi_gdb *g, char *data, size_t size, struct roi_err *err);

/* send + recv; an error reply "Enn" becomes "PEER: REQUEST: error nn". */
int roi_gdb_exchange(struct roi_gdb *g, const char *request, char *reply, size_t size, struct roi_err *err);

/* Reads len bytes of target memory at addr ("m addr,len", in chunks). */
int roi_gdb_read_memory(struct roi_gdb *g, uint64_t addr, void *out, size_t len, struct roi_err *err);

#endif
