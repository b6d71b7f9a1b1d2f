/* webcfg.c - exporter-toolkit's web configuration file (webcfg.h). */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "fsafe.h"
#include "paths.h"
#include "webcfg.h"

#define WEBCFG_MAX_FILE (64 * 1024)
#define WEBCFG_MAX_PEM (1024 * 1024)

void webcfg_release(struct webcfg *w)
{
	size_t i;

	for (i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		free(w->users[i].hash);
		free(w->users[i].ok);
	}
	free(w->cert);
	if (w->key)
		memset(w->key, 0, strlen(w->key));
	free(w->key);
	memset(w, 0, sizeof(*w));
}

/* What is known and what pccbench does with it. */
static const char *const unsupported[] = {
	"client_auth_type", "client_ca_file", "client_allowed_sans",
	"min_version", "max_version", "cipher_suites", "curve_preferences",
	"prefer_server_cipher_suites", "http_server_config", NULL
};

static bool is_unsupported(const char *k)
{
	size_t i;

	for (i = 0; unsupported[i]; i++)
		if (!strcmp(k, unsupported[i]))
			return true;
	return false;
}

struct ld {
	const char *path;
	yaml_document_t *d;
	struct pcb_err *err;
};

static int bad(struct ld *l, const yaml_node_t *n, const char *what,
	       const char *key)
{
	return pcb_error(l->err, PCB_E_INVAL, "%s:%lu: %s '%s'", l->path,
			 n ? (unsigned long)n->start_mark.line + 1 : 0UL, what,
			 key);
}

/* A scalar's text, or NULL (with the error) when it is none or empty. */
static const char *scalar(struct ld *l, const yaml_node_t *n,
			  const char *key)
{
	if (!n || n->type != YAML_SCALAR_NODE || !n->data.scalar.length) {
		bad(l, n, "needs a value:", key);
		return NULL;
	}
	if (strlen((const char *)n->data.scalar.value) !=
	    n->data.scalar.length) {
		bad(l, n, "a NUL in the value of", key);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

/* A PEM file named relative to the configuration's folder. */
static int read_pem(struct ld *l, const char *name, char **out)
{
	char path[PCB_PATH_LEN];
	const char *slash = strrchr(l->path, '/');
	size_t len;
	int rc;

	if (name[0] == '/' || !slash)
		rc = pcb_path(path, sizeof(path), l->err, "%s", name);
	else
		rc = pcb_path(path, sizeof(path), l->err, "%.*s/%s",
			      (int)(slash - l->path), l->path, name);
	if (!rc)
		rc = pcb_read_file(path, WEBCFG_MAX_PEM, out, &len, l->err);
	if (!rc && (strlen(*out) != len || !strstr(*out, "-----BEGIN ")))
		rc = pcb_error(l->err, PCB_E_INVAL, "%s: '%s' is not a PEM "
			       "file", l->path, path);
	return rc;
}

static int load_tls(struct ld *l, struct webcfg *w, yaml_node_t *m)
{
	const char *cert = NULL, *key = NULL;
	yaml_node_pair_t *p;
	int rc;

	if (m->type != YAML_MAPPING_NODE)
		return bad(l, m, "a mapping is wanted for", "tls_server_config");
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(l->d, p->key);
		yaml_node_t *v = yaml_document_get_node(l->d, p->value);
		const char *ks = k && k->type == YAML_SCALAR_NODE ?
				 (const char *)k->data.scalar.value : "?";
		const char **dst = !strcmp(ks, "cert_file") ? &cert :
				   !strcmp(ks, "key_file") ? &key : NULL;

		if (!dst)
			return bad(l, k, is_unsupported(ks) ? "pccbench does "
				   "not support" : "unknown key", ks);
		if (*dst)
			return bad(l, k, "given twice:", ks);
		*dst = scalar(l, v, ks);
		if (!*dst)
			return -l->err->code;
	}
	if (!cert || !key)
		return bad(l, m, "needs both cert_file and key_file:",
			   "tls_server_config");
	rc = read_pem(l, cert, &w->cert);
	if (!rc)
		rc = read_pem(l, key, &w->key);
	return rc;
}

/* A bcrypt hash libcrypt takes: $2a$, $2b$ or $2y$, cost, salt, hash. */
static bool bcrypt_ok(const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *r;
	bool ok;

	if (!cd)
		return false;
	r = crypt_r("", hash, cd);
	ok = strlen(hash) == 60 && (!strncmp(hash, "$2a$", 4) ||
	     !strncmp(hash, "$2b$", 4) || !strncmp(hash, "$2y$", 4)) &&
	     r && r[0] == '$' && strlen(r) == 60 && !strncmp(r, hash, 29);
	free(cd);
	return ok;
}

static int load_users(struct ld *l, struct webcfg *w, yaml_node_t *m)
{
	yaml_node_pair_t *p;
	size_t i;

	if (m->type != YAML_MAPPING_NODE)
		return bad(l, m, "a mapping is wanted for", "basic_auth_users");
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(l->d, p->key);
		yaml_node_t *v = yaml_document_get_node(l->d, p->value);
		const char *name = scalar(l, k, "a user"), *hash;
		struct webcfg_user *u;

		if (!name)
			return -l->err->code;
		if (strchr(name, ':'))
			return bad(l, k, "a ':' in the user name", name);
		for (i = 0; i < w->nusers; i++)
			if (!strcmp(w->users[i].name, name))
				return bad(l, k, "given twice: user", name);
		if (w->nusers == WEBCFG_MAX_USERS)
			return bad(l, k, "too many users, at", name);
		hash = scalar(l, v, name);
		if (!hash)
			return -l->err->code;
		if (!bcrypt_ok(hash))
			return bad(l, v, "not a bcrypt hash ($2y$..., "
				   "htpasswd -nB) for user", name);
		u = &w->users[w->nusers];
		u->name = strdup(name);
		u->hash = strdup(hash);
		if (!u->name || !u->hash) {
			free(u->name);
			free(u->hash);
			return pcb_error(l->err, PCB_E_NOMEM, "out of memory");
		}
		w->nusers++;
	}
	return 0;
}

int webcfg_load(struct webcfg *w, const char *path, struct pcb_err *err)
{
	struct ld l = { .path = path, .err = err };
	bool tls = false, users = false;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *p;
	char *buf = NULL;
	size_t len;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = pcb_read_file(path, WEBCFG_MAX_FILE, &buf, &len, err);
	if (rc)
		return rc;
	if (!yaml_parser_initialize(&parser)) {
		free(buf);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = pcb_error(err, PCB_E_INVAL, "%s:%lu: %s", path,
			       (unsigned long)parser.problem_mark.line + 1,
			       parser.problem ? parser.problem :
			       "not YAML");
		goto out_parser;
	}
	l.d = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_SCALAR_NODE &&
	    !root->data.scalar.length)
		root = NULL;	/* a file of comments */
	if (root && root->type != YAML_MAPPING_NODE)
		rc = bad(&l, root, "a mapping of keys is wanted, as in",
			 "tls_server_config: ...");
	for (p = root && !rc ? root->data.mapping.pairs.start : NULL;
	     p && !rc && p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);
		const char *ks = k && k->type == YAML_SCALAR_NODE ?
				 (const char *)k->data.scalar.value : "?";
		bool *seen = !strcmp(ks, "tls_server_config") ? &tls :
			     !strcmp(ks, "basic_auth_users") ? &users : NULL;

		if (!seen)
			rc = bad(&l, k, is_unsupported(ks) ? "pccbench does "
				 "not support" : "unknown key", ks);
		else if (*seen)
			rc = bad(&l, k, "given twice:", ks);
		else if (!v)
			rc = bad(&l, k, "needs a value:", ks);
		else if (seen == &tls)
			rc = load_tls(&l, w, v);
		else
			rc = load_users(&l, w, v);
		if (seen)
			*seen = true;
	}
	if (!rc && !w->cert && !w->nusers)
		rc = pcb_error(err, PCB_E_INVAL, "%s: neither "
			       "tls_server_config nor basic_auth_users: "
			       "nothing to serve differently", path);
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	free(buf);
	if (rc)
		webcfg_release(w);
	return rc;
}

/* a == b in a time that does not depend on where they differ */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned char d = la != lb;

	for (i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

bool webcfg_check(struct webcfg *w, const char *user, const char *pass)
{
	/* a cost-10 hash to spend an unknown user's time on */
	static const char dummy[] = "$2y$10$ct8qULaspdBSsYqvJbwwt.dUOBXagv"
				    "/DSOybM/frmbmRFm57UkIpO";
	struct webcfg_user *u = NULL;
	struct crypt_data *cd;
	const char *r;
	size_t i;
	bool ok;

	for (i = 0; i < w->nusers; i++)
		if (same(w->users[i].name, user))
			u = &w->users[i];
	if (u && u->ok && same(u->ok, pass))
		return true;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	r = crypt_r(pass, u ? u->hash : dummy, cd);
	ok = u && r && same(r, u->hash);
	free(cd);
	if (ok) {
		char *c = strdup(pass);

		if (c) {
			free(u->ok);
			u->ok = c;
		}
	}
	return ok;
}
