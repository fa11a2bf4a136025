/*
 * config-write: set one variable in a config file the way "git config
 * <key> <value>" does, so that the file reads as git would have left it:
 * the one existing line of the variable is rewritten in place; a new
 * variable goes after the last line of the last section of its name, or
 * into a new section at the end.  Everything else is kept byte for byte.
 */
#ifndef DIRC_CONFIG_WRITE_H
#define DIRC_CONFIG_WRITE_H

#include "strbuf.h"

/*
 * Set key ("section[.sub].name", any case: the file gets it as given) to
 * value in the file at path, which is created if missing.  The file is
 * replaced through "<path>.lock", keeping its mode (a new file gets the
 * shared-repository mode).  0, or a negative E_*: -E_CONFLICT when key
 * has several values (a warning "<key> has multiple values" is emitted
 * first; the message is "could not set '<key>' to '<value>'"), -E_LOCKED
 * ("could not lock config file <path>: File exists"), -E_CORRUPT for a
 * file that does not parse, -E_INVALID for a bad key, or an I/O error.
 */
int config_write_set(const char *path, const char *key, const char *value);

/*
 * The same on text in memory: out gets text[0..len) with key set.
 * origin names the text in parse errors.  0, or -E_CONFLICT, -E_CORRUPT,
 * -E_INVALID as above.
 */
int config_write_text(struct strbuf *out, const char *text, size_t len,
		      const char *origin, const char *key, const char *value);

/*
 * How many values key has in the file at path (0 if the file is missing),
 * or a negative E_* if it cannot be read or parsed.
 */
int config_write_count(const char *path, const char *key);

#endif
