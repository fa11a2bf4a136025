/*
 * t-error: the thread's error slot: messages short and long (formatted
 * on the stack or the heap), cut at ERROR_MSG_MAX, and a new message
 * made from the current one (its arguments may be the slot itself).
 */
#include <string.h>

#include "tap.h"
#include "error.h"

static void
test_lengths(void)
{
	static char longer[3000], huge[ERROR_MSG_MAX + 500];

	memset(longer, 'a', sizeof(longer) - 1);
	memset(huge, 'b', sizeof(huge) - 1);

	is_int(error_set(E_NOTFOUND, "short %s", "one"), -E_NOTFOUND,
	       "error_set returns -code");
	is_str(error_msg(), "short one", "a short message");
	is_int(error_code(), E_NOTFOUND, "... and its code");
	ok(error_pre() == NULL, "... with no first line");

	error_set(E_CORRUPT, "%s.", longer);
	ok(strlen(error_msg()) == sizeof(longer) &&
	   !strncmp(error_msg(), longer, sizeof(longer) - 1) &&
	   error_msg()[sizeof(longer) - 1] == '.',
	   "a message of 3,000 bytes is kept whole");

	error_set(E_CORRUPT, "%.255s", longer);
	is_int(strlen(error_msg()), 255, "255 bytes: kept whole");
	error_set(E_CORRUPT, "%.256s", longer);
	is_int(strlen(error_msg()), 256, "256 bytes: kept whole");

	error_set(E_CORRUPT, "x%s", huge);
	is_int(strlen(error_msg()), ERROR_MSG_MAX - 1,
	       "a longer message is cut at ERROR_MSG_MAX - 1 bytes");
	ok(error_msg()[0] == 'x' && error_msg()[1] == 'b',
	   "... keeping its start");
}

static void
test_from_itself(void)
{
	static char longer[1000];

	error_set(E_NOTFOUND, "inner");
	error_set(E_CORRUPT, "outer: %s", error_msg());
	is_str(error_msg(), "outer: inner", "a message made from the last "
	       "one");

	error_set_pre(E_CORRUPT, "first line", "second");
	error_set_pre(E_CORRUPT, error_pre(), "again: %s", error_msg());
	is_str(error_pre(), "first line", "the first line given as itself");
	is_str(error_msg(), "again: second", "... the message from itself");

	error_set(E_NOTFOUND, "was the message");
	error_set_pre(E_CORRUPT, error_msg(), "now %s", error_msg());
	is_str(error_pre(), "was the message", "the old message as first "
	       "line");
	is_str(error_msg(), "now was the message", "... and in the new one");

	memset(longer, 'c', sizeof(longer) - 1);
	error_set(E_NOTFOUND, "%s", longer);
	error_set_pre(E_CORRUPT, error_msg(), "<%s>", error_msg());
	ok(strlen(error_pre()) == sizeof(longer) - 1 &&
	   strlen(error_msg()) == sizeof(longer) + 1 &&
	   error_msg()[0] == '<' && error_msg()[sizeof(longer)] == '>',
	   "a long message, made from itself, as first line and message");

	error_clear();
	is_str(error_msg(), "", "cleared: no message");
	is_int(error_code(), 0, "... and no code");
}

int
main(void)
{
	test_lengths();
	test_from_itself();
	return done_testing();
}
