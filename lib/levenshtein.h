/*
 * levenshtein: a weighted edit distance between two strings, for "did
 * you mean" suggestions.
 */
#ifndef DIRC_LEVENSHTEIN_H
#define DIRC_LEVENSHTEIN_H

/*
 * The cheapest way to turn a into b by editing characters: each
 * exchange of two adjacent characters costs swap, each replaced
 * character subst, each character added to a ins, each one removed from
 * a del (the optimal-string-alignment form of the Damerau distance: no
 * character is edited after an exchange).  git weighs a mistyped command
 * against its commands with (0, 2, 1, 3).  Allocates; never fails
 * (dies on OOM).
 */
int levenshtein(const char *a, const char *b, int swap, int subst, int ins,
		int del);

#endif
