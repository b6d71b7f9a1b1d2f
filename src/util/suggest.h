/* suggest.h - "did you mean": the closest names to a word nobody knows.
 *
 * Feed every candidate to suggest_add; suggest_text gives "" or
 * "; did you mean ALPHA?" (up to three, closest first).  Closeness is the
 * edit distance with transpositions, case-insensitive, and a candidate
 * must be within a third of the word's length (at least 1, at most 3)
 * or start with the word.  Candidates are not copied: they must live
 * until suggest_text.
 */
#ifndef PCCB_SUGGEST_H
#define PCCB_SUGGEST_H

#include <stddef.h>

#define SUGGEST_MAX 3

struct suggest {
	const char *word;
	const char *best[SUGGEST_MAX];
	unsigned dist[SUGGEST_MAX];
	size_t n;
};

void suggest_init(struct suggest *sg, const char *word);
void suggest_add(struct suggest *sg, const char *cand);
const char *suggest_text(const struct suggest *sg, char *buf, size_t len);

#endif
