/*
 * pkt-line: git's packet framing, as its long-running filter processes
 * speak it.  A packet is four lower- or upper-case hex digits giving its
 * whole length (the four included), then that many bytes less four of
 * payload; "0000" is a flush packet (the end of a list or of content).
 * "0001" and "0002" are special packets of protocol v2; "0003" is
 * invalid, and so is anything over PKT_MAX_LEN.  Text packets end in "\n", which the reader strips.
 */
#ifndef DIRC_PKT_LINE_H
#define DIRC_PKT_LINE_H

#include <stddef.h>

#include "strbuf.h"

#define PKT_MAX_LEN 65520			/* header included */
#define PKT_MAX_PAYLOAD (PKT_MAX_LEN - 4)	/* 65516 */

/*
 * Write one data packet of len bytes (1..PKT_MAX_PAYLOAD) to fd.  0, or
 * -E_IO with errno set (the caller words the message; EPIPE when the
 * other end is gone).
 */
int pkt_write(int fd, const void *data, size_t len);

/* Write a text packet: s and a "\n".  As pkt_write(). */
int pkt_write_line(int fd, const char *s);

/* Write a flush packet.  As pkt_write(). */
int pkt_flush(int fd);

/* Write data (any length, 0 included) as data packets, then a flush. */
int pkt_write_content(int fd, const void *data, size_t len);

enum pkt_read_result {
	PKT_READ_FLUSH = 0,	/* "0000" */
	PKT_READ_DATA = 1,	/* a data packet: out holds its payload */
	PKT_READ_DELIM = 2,	/* "0001" or "0002" (protocol v2's delimiter
				 * and response end; no meaning here, but
				 * not an error of framing) */
};

/*
 * Read one packet from fd into out (replaced).  PKT_READ_DATA (out holds
 * the payload, NUL-terminated; with strip, a final "\n" is removed) or
 * PKT_READ_FLUSH or PKT_READ_DELIM (out empty); or -E_CORRUPT with the message set:
 * "protocol error: bad line length character: <4 bytes>" for a header
 * that is not hex, "protocol error: bad line length <n>" for a length
 * of 3 (n: 3) or a payload over PKT_MAX_PAYLOAD (n: the
 * payload's length, as git counts); -E_IO "the remote end hung up unexpectedly" at
 * end of file (before or inside a packet), or "read error: <reason>".
 */
int pkt_read(int fd, struct strbuf *out, int strip);

#endif
