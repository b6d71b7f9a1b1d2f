/* webcfg.h - the web configuration file Prometheus exporters read
 * (prometheus/exporter-toolkit's `--web.config.file`), for `serve
 * metrics ... web-config FILE`:
 *
 *   tls_server_config:
 *     cert_file: server.crt     # PEM; relative to the file's folder
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...         # bcrypt (htpasswd -nBC 10 alice)
 *
 * YAML (libyaml).  As exporter-toolkit, a key it does not know is an
 * error; of what it knows, pccbench takes the two above and refuses the
 * others it does not implement (client certificates, TLS versions and
 * ciphers, http_server_config) rather than serve without them.  Every
 * error is one line naming the file (and the line where there is one).
 *
 * Ownership: webcfg_load fills a zeroed struct webcfg, released with
 * webcfg_release (also after a failed load).
 */
#ifndef PCCB_WEBCFG_H
#define PCCB_WEBCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

#define WEBCFG_MAX_USERS 64

struct webcfg_user {
	char *name, *hash;
	char *ok;		/* the last password that matched, or NULL:
				 * bcrypt costs tens of ms, once per user */
};

struct webcfg {
	char *cert, *key;	/* the PEM texts, NULL without TLS */
	struct webcfg_user users[WEBCFG_MAX_USERS];
	size_t nusers;		/* 0: no basic auth */
};

int webcfg_load(struct webcfg *w, const char *path, struct pcb_err *err);
void webcfg_release(struct webcfg *w);
/* Whether user and password match a basic_auth_users entry.  An unknown
 * user costs a bcrypt as a known one does.
 */
bool webcfg_check(struct webcfg *w, const char *user, const char *pass);

#endif
