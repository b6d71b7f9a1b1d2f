/* who.h - who is running this process, for the audit trail: the journal's
 * "S" records and the syslog record of every register write.
 */
#ifndef PCCB_WHO_H
#define PCCB_WHO_H

#include <stddef.h>
#include <sys/types.h>

struct who {
	uid_t uid;
	long pid;
	char user[64];		/* the password database's name, or "?" */
	char host[256];		/* gethostname, or "?" */
};

/* Every string one word of [A-Za-z0-9._@+-] (anything else '?'), so a
 * record that holds it stays one line of words.
 */
void who_am_i(struct who *w);
/* "2026-11-27T19:40:00+0000": local time with its offset from UTC. */
void who_time(char *buf, size_t len);

#endif
