/*
 * t-levenshtein: the weighted edit distance behind "did you mean" —
 * each kind of edit at its own price, exchanges of neighbours, and the
 * weights git gives a mistyped command (0, 2, 1, 3).
 */
#include "tap.h"
#include "levenshtein.h"

#include <stdio.h>

static void
test_unit_weights(void)
{
	is_int(levenshtein("", "", 1, 1, 1, 1), 0, "two empty strings");
	is_int(levenshtein("abc", "abc", 1, 1, 1, 1), 0, "equal strings");
	is_int(levenshtein("", "abc", 1, 1, 1, 1), 3, "all added");
	is_int(levenshtein("abc", "", 1, 1, 1, 1), 3, "all removed");
	is_int(levenshtein("kitten", "sitting", 9, 1, 1, 1), 3,
	       "kitten to sitting: two replaced, one added");
	is_int(levenshtein("ab", "ba", 1, 1, 1, 1), 1, "one exchange");
	is_int(levenshtein("ab", "ba", 5, 1, 1, 1), 2,
	       "an exchange dearer than two replacements is not used");
	is_int(levenshtein("abcd", "badc", 1, 9, 9, 9), 2, "two exchanges");
}

static void
test_git_weights(void)
{
	/* git's help.c weighs: exchange 0, replace 2, add 1, remove 3 */
	is_int(levenshtein("updat-index", "update-index", 0, 2, 1, 3), 1,
	       "a letter left out: one added");
	is_int(levenshtein("cat-fiel", "cat-file", 0, 2, 1, 3), 0,
	       "two letters exchanged: free");
	is_int(levenshtein("write-treee", "write-tree", 0, 2, 1, 3), 3,
	       "a letter too many: one removed");
	is_int(levenshtein("diff-indx", "diff-index", 0, 2, 1, 3), 1,
	       "diff-indx: one added");
	is_int(levenshtein("ini", "init-db", 0, 2, 1, 3), 4,
	       "ini to init-db: four added");
	is_int(levenshtein("xyzzy", "mktree", 0, 2, 1, 3), 11,
	       "nothing in common: replaced, then added");
	is_int(levenshtein("abc", "xbc", 0, 2, 1, 3), 2, "one replaced");
	is_int(levenshtein("abc", "xbc", 0, 9, 1, 3), 4,
	       "a replacement dearer than remove and add is not used");
}

int
main(void)
{
	test_unit_weights();
	test_git_weights();
	return done_testing();
}
