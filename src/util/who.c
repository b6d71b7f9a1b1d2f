/* who.c - who is running this process (who.h). */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "who.h"

static void one_word(char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._@+-", *s))
			*s = '?';
}

void who_am_i(struct who *w)
{
	struct passwd pw, *r = NULL;
	char buf[1024];

	memset(w, 0, sizeof(*w));
	w->uid = getuid();
	w->pid = (long)getpid();
	if (!getpwuid_r(w->uid, &pw, buf, sizeof(buf), &r) && r &&
	    r->pw_name[0])
		snprintf(w->user, sizeof(w->user), "%s", r->pw_name);
	else
		snprintf(w->user, sizeof(w->user), "?");
	if (gethostname(w->host, sizeof(w->host) - 1) || !w->host[0])
		snprintf(w->host, sizeof(w->host), "?");
	w->host[sizeof(w->host) - 1] = '\0';
	one_word(w->user);
	one_word(w->host);
}

void who_time(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S%z", &tm))
		snprintf(buf, len, "?");
}
