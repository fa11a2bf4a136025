/*
 * levenshtein: the weighted edit distance of levenshtein.h, by dynamic
 * programming over three rows: cost[i][j] is the price of turning the
 * first i characters of a into the first j of b, and an exchange looks
 * two rows back.
 */
#include "levenshtein.h"

#include <string.h>

#include "util.h"

int
levenshtein(const char *a, const char *b, int swap, int subst, int ins,
	    int del)
{
	size_t la = strlen(a), lb = strlen(b);
	int *back2 = xcalloc(lb + 1, sizeof(int));	/* row i - 2 */
	int *back1 = xcalloc(lb + 1, sizeof(int));	/* row i - 1 */
	int *row = xcalloc(lb + 1, sizeof(int));	/* row i */
	int ret;

	for (size_t j = 0; j <= lb; j++)
		back1[j] = (int)j * ins;
	for (size_t i = 1; i <= la; i++) {
		int *t;

		row[0] = (int)i * del;
		for (size_t j = 1; j <= lb; j++) {
			int best = back1[j - 1] +
				   (a[i - 1] != b[j - 1] ? subst : 0);

			if (i > 1 && j > 1 && a[i - 2] == b[j - 1] &&
			    a[i - 1] == b[j - 2])
				best = MIN(best, back2[j - 2] + swap);
			best = MIN(best, back1[j] + del);
			best = MIN(best, row[j - 1] + ins);
			row[j] = best;
		}
		t = back2;
		back2 = back1;
		back1 = row;
		row = t;
	}
	ret = back1[lb];
	free(back2);
	free(back1);
	free(row);
	return ret;
}
