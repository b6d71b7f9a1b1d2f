/* suggest.c - closest names for "did you mean" (see suggest.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

#define SG_MAXLEN 64

/* Optimal-string-alignment distance, case-insensitive; words longer than
 * SG_MAXLEN are too far from anything.
 */
static unsigned distance(const char *a, const char *b)
{
	unsigned d[SG_MAXLEN + 1][SG_MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > SG_MAXLEN || lb > SG_MAXLEN)
		return ~0u;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			unsigned c = tolower((unsigned char)a[i - 1]) !=
				     tolower((unsigned char)b[j - 1]);
			unsigned v = d[i - 1][j - 1] + c;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

void suggest_init(struct suggest *sg, const char *word)
{
	memset(sg, 0, sizeof(*sg));
	sg->word = word;
}

void suggest_add(struct suggest *sg, const char *cand)
{
	size_t lw = strlen(sg->word), i, k;
	unsigned limit = (unsigned)(lw / 3), d;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	if (!*cand || !*sg->word)
		return;
	d = distance(sg->word, cand);
	if (d == 0)
		return;		/* the word itself is not a suggestion */
	if (d > limit) {	/* a prefix of a longer name still counts */
		if (lw < 2 || strncasecmp(cand, sg->word, lw))
			return;
		d = limit;
	}
	for (i = 0; i < sg->n; i++)
		if (!strcmp(sg->best[i], cand))
			return;
	for (i = 0; i < sg->n && sg->dist[i] <= d; i++)
		;
	if (i == SUGGEST_MAX)
		return;
	k = sg->n < SUGGEST_MAX ? sg->n : SUGGEST_MAX - 1;
	memmove(&sg->best[i + 1], &sg->best[i], (k - i) * sizeof(sg->best[0]));
	memmove(&sg->dist[i + 1], &sg->dist[i], (k - i) * sizeof(sg->dist[0]));
	sg->best[i] = cand;
	sg->dist[i] = d;
	if (sg->n < SUGGEST_MAX)
		sg->n++;
}

const char *suggest_text(const struct suggest *sg, char *buf, size_t len)
{
	size_t i, o;

	if (!len)
		return "";
	buf[0] = '\0';
	if (!sg->n)
		return buf;
	o = (size_t)snprintf(buf, len, "; did you mean ");
	for (i = 0; i < sg->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
				      !i ? "" : i + 1 == sg->n ? " or " : ", ",
				      sg->best[i]);
	if (o < len)
		snprintf(buf + o, len - o, "?");
	return buf;
}
