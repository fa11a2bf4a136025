/*
 * error: the thread-local error slot and the diagnostic hook.
 * Invariant: msg is always a NUL-terminated string (possibly empty);
 * has_pre says whether pre holds a first line.
 */
#define DIRC_ERROR_IMPL	/* the definitions below, not the analyzer's macros */
#include "error.h"

struct error_slot {
	int code;
	int has_pre;
	char msg[ERROR_MSG_MAX];
	char pre[ERROR_MSG_MAX];
};

static _Thread_local struct error_slot slot;
static diag_printer_fn diag_printer;

PRINTF_LIKE(3, 0) static int
set_va(int code, const char *pre, const char *fmt, va_list ap)
{
	/*
	 * The arguments may be the current message itself: format aside,
	 * on the stack while the message is short, else on the heap.  Not
	 * 16 KiB of stack: the "not found" answers of a small command's
	 * lookups would each reach four pages deeper, and every page's
	 * first touch is a page fault.
	 */
	char small[256], *big = NULL;
	const char *msg = small;
	size_t pre_len = pre ? strnlen(pre, ERROR_MSG_MAX - 1) : 0;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		small[0] = '\0';
	} else if ((size_t)n >= sizeof(small)) {
		size_t want = (size_t)n < ERROR_MSG_MAX ? (size_t)n + 1 :
			ERROR_MSG_MAX;

		big = malloc(want);	/* without it: the first 255 bytes */
		if (big) {
			vsnprintf(big, want, fmt, aq);
			msg = big;
		}
	}
	va_end(aq);
	slot.code = code;
	slot.has_pre = pre != NULL;
	/* pre may be slot.pre or slot.msg: moved before msg is written */
	if (pre) {
		memmove(slot.pre, pre, pre_len);
		slot.pre[pre_len] = '\0';
	}
	/*
	 * Only the strings: the slot (16 KiB a thread) is touched only as
	 * far as its messages go.
	 */
	memcpy(slot.msg, msg, strlen(msg) + 1);
	free(big);
	return -code;
}

int
error_set(int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_va(code, NULL, fmt, ap);
	va_end(ap);
	return ret;
}

int
error_set_pre(int code, const char *pre, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = set_va(code, pre, fmt, ap);
	va_end(ap);
	return ret;
}

int
error_code_of_errno(int errnum)
{
	switch (errnum) {
	case EFBIG:
		return E_TOOBIG;
	case ENOSPC:
	case EDQUOT:
		return E_NOSPACE;
	case EACCES:
	case EPERM:
	case EROFS:
		return E_PERM;
	case ENOENT:
	case ENOTDIR:
		return E_NOTFOUND;
	case ENOMEM:
		return E_IO;
	default:
		return E_IO;
	}
}

int
error_errno(int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	set_va(error_code_of_errno(errnum), NULL, fmt, ap);
	va_end(ap);
	len = strnlen(slot.msg, sizeof(slot.msg));
	snprintf(slot.msg + len, sizeof(slot.msg) - len, ": %s",
		 strerror(errnum));
	return -slot.code;
}

const char *
error_msg(void)
{
	return slot.msg;
}

const char *
error_pre(void)
{
	return slot.has_pre ? slot.pre : NULL;
}

int
error_code(void)
{
	return slot.code;
}

void
error_clear(void)
{
	slot.code = 0;
	slot.has_pre = 0;
	slot.msg[0] = '\0';
}

void
error_save(struct error_saved *out)
{
	error_saved_release(out);
	out->code = slot.code;
	out->msg = xstrdup(slot.msg);
	out->pre = slot.has_pre ? xstrdup(slot.pre) : NULL;
}

int
error_restore(const struct error_saved *saved)
{
	if (saved->pre)
		return error_set_pre(saved->code, saved->pre, "%s",
				     saved->msg ? saved->msg : "");
	return error_set(saved->code, "%s", saved->msg ? saved->msg : "");
}

void
error_saved_release(struct error_saved *saved)
{
	free(saved->msg);
	free(saved->pre);
	saved->code = 0;
	saved->msg = NULL;
	saved->pre = NULL;
}

void
diag_set_printer(diag_printer_fn fn)
{
	diag_printer = fn;
}

void
diag_emit(enum diag_level level, const char *fmt, ...)
{
	char buf[ERROR_MSG_MAX];
	va_list ap;

	if (!diag_printer)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_printer(level, buf);
}
