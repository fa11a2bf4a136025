/*
 * pkt-line: framing only; what the packets mean is the caller's.
 *
 *   offset  size   meaning
 *   0       4      length in hex, header included ("0000": flush)
 *   4       len-4  payload (at most 65516 bytes)
 */
#include "pkt-line.h"

#include <errno.h>
#include <string.h>

#include "error.h"
#include "hash.h"

static void
put_header(char *hdr, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	hdr[0] = hex[(len >> 12) & 15];
	hdr[1] = hex[(len >> 8) & 15];
	hdr[2] = hex[(len >> 4) & 15];
	hdr[3] = hex[len & 15];
}

int
pkt_write(int fd, const void *data, size_t len)
{
	char buf[PKT_MAX_LEN];

	if (!len || len > PKT_MAX_PAYLOAD)
		BUG("pkt_write of %zu bytes", len);
	put_header(buf, len + 4);
	memcpy(buf + 4, data, len);
	if (write_full(fd, buf, len + 4) < 0)
		return -E_IO;
	return 0;
}

int
pkt_write_line(int fd, const char *s)
{
	char buf[PKT_MAX_LEN];
	size_t len = strlen(s);

	if (len + 1 > PKT_MAX_PAYLOAD)
		BUG("pkt_write_line of %zu bytes", len);
	memcpy(buf, s, len);
	buf[len] = '\n';
	return pkt_write(fd, buf, len + 1);
}

int
pkt_flush(int fd)
{
	if (write_full(fd, "0000", 4) < 0)
		return -E_IO;
	return 0;
}

int
pkt_write_content(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		size_t n = len < PKT_MAX_PAYLOAD ? len : PKT_MAX_PAYLOAD;

		if (pkt_write(fd, p, n) < 0)
			return -E_IO;
		p += n;
		len -= n;
	}
	return pkt_flush(fd);
}

static int
read_exact(int fd, void *buf, size_t len)
{
	ssize_t n = read_full(fd, buf, len);

	if (n < 0)
		return error_errno(errno, "read error");
	if ((size_t)n < len)
		return error_set(E_IO, "the remote end hung up unexpectedly");
	return 0;
}

int
pkt_read(int fd, struct strbuf *out, int strip)
{
	unsigned char hdr[4];
	size_t len = 0;
	int ret;

	strbuf_reset(out);
	ret = read_exact(fd, hdr, 4);
	if (ret < 0)
		return ret;
	for (int i = 0; i < 4; i++) {
		int v = hexval(hdr[i]);

		if (v < 0) {
			char shown[5];

			/* the bytes as they are, up to a NUL, as git shows them */
			memcpy(shown, hdr, 4);
			shown[4] = '\0';
			return error_set(E_CORRUPT, "protocol error: bad line "
					 "length character: %s", shown);
		}
		len = len * 16 + v;
	}
	if (!len)
		return PKT_READ_FLUSH;
	if (len == 1 || len == 2)
		return PKT_READ_DELIM;
	if (len < 4)
		return error_set(E_CORRUPT, "protocol error: bad line length "
				 "%zu", len);
	len -= 4;
	if (len > PKT_MAX_PAYLOAD)
		return error_set(E_CORRUPT, "protocol error: bad line length "
				 "%zu", len);
	strbuf_grow(out, len);
	ret = read_exact(fd, out->buf, len);
	if (ret < 0)
		return ret;
	strbuf_setlen(out, len);
	if (strip && len && out->buf[len - 1] == '\n')
		strbuf_setlen(out, len - 1);
	return PKT_READ_DATA;
}
