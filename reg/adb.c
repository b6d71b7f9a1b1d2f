/* adb.c - ADB XML layouts (libxml2) and generic bit-exact pack/unpack.
 * Format facts: ../shared/spec/ppcc-mstreg-fwctl.md section 1.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "adb.h"

#define ADB_MAX_DEPTH 24
#define ADB_MAX_FIELDS 65536

struct adb_node {
	const char *name;	/* points into the xml doc */
	xmlNodePtr xml;
	uint32_t size;		/* bits */
	bool is_union;
};

struct adb_regname {
	char *name;
	uint32_t id;
};

struct adb_db {
	xmlDocPtr doc;
	char *source;
	bool big_endian_arr;
	size_t nnodes;
	struct adb_node *nodes;		/* sorted by name */
	size_t nregs;
	struct adb_regname *regs;	/* sorted by name */
};

/* ---- small helpers ---------------------------------------------------- */

uint32_t adb_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void adb_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static const char *xattr(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a = xmlHasProp(n, (const xmlChar *)name);

	if (!a || !a->children || !a->children->content)
		return NULL;
	return (const char *)a->children->content;
}

static bool xname_is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	       !strcmp((const char *)n->name, name);
}

/* Parse one unsigned number part: hex with 0x, else decimal. */
static bool parse_part(const char *s, size_t len, bool hex_default,
		       uint64_t *out)
{
	char tmp[32];
	char *end;
	int base = hex_default ? 16 : 10;

	if (len == 0) {
		*out = 0;
		return true;
	}
	if (len >= sizeof(tmp))
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (len > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)tmp[0]))
		return false;
	errno = 0;
	*out = strtoull(tmp, &end, base);
	return !errno && *end == '\0';
}

/* "0xB.b" / "B.b" / "0xB" / ".b" -> bits.  Bytes part hex when 0x-prefixed,
 * bit part always decimal (mstflint's parse_size).
 */
static bool adb_parse_bits(const char *s, uint32_t *bits)
{
	const char *dot;
	uint64_t bytes, b;

	if (!s || !*s)
		return false;
	dot = strchr(s, '.');
	if (!dot) {
		if (!parse_part(s, strlen(s), false, &bytes))
			return false;
		b = 0;
	} else {
		if (!parse_part(s, (size_t)(dot - s), false, &bytes) ||
		    !parse_part(dot + 1, strlen(dot + 1), false, &b))
			return false;
	}
	if (bytes > 0x10000000 || b > 0xffffff)
		return false;
	*bits = (uint32_t)(bytes * 8 + b);
	return true;
}

static int node_cmp(const void *a, const void *b)
{
	return strcmp(((const struct adb_node *)a)->name,
		      ((const struct adb_node *)b)->name);
}

static int regname_cmp(const void *a, const void *b)
{
	return strcasecmp(((const struct adb_regname *)a)->name,
			  ((const struct adb_regname *)b)->name);
}

static const struct adb_node *find_node(const struct adb_db *db,
					const char *name)
{
	struct adb_node key = { .name = name };

	if (!db->nnodes)	/* bsearch(.., NULL, 0) is undefined */
		return NULL;
	return bsearch(&key, db->nodes, db->nnodes, sizeof(key), node_cmp);
}

/* Parse "A=0x1,B=2" looking for name (want_name) or value. */
static bool enum_lookup(const char *enums, const char *want_name,
			uint32_t *value, uint32_t want_value, char *name_out,
			size_t name_len)
{
	const char *p = enums;

	while (p && *p) {
		const char *eq = strchr(p, '=');
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		uint64_t v;

		if (!eq || eq > end)
			return false;
		if (parse_part(eq + 1, (size_t)(end - eq - 1), false, &v)) {
			size_t nlen = (size_t)(eq - p);

			if (want_name && strlen(want_name) == nlen &&
			    !strncmp(p, want_name, nlen)) {
				*value = (uint32_t)v;
				return true;
			}
			if (!want_name && v == want_value) {
				snprintf(name_out, name_len, "%.*s",
					 (int)nlen, p);
				return true;
			}
		}
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

/* ---- loading ------------------------------------------------------------ */

static int adb_index(struct adb_db *db, struct pcb_err *err)
{
	xmlNodePtr root = xmlDocGetRootElement(db->doc);
	xmlNodePtr n;
	size_t cap = 0;
	const struct adb_node *ctrl, *summ;

	if (!root || !xname_is(root, "NodesDefinition"))
		return pcb_error(err, PCB_E_PARSE,
				 "'%s' is not an ADB file (no NodesDefinition)",
				 db->source);
	for (n = root->children; n; n = n->next) {
		const char *v;

		if (xname_is(n, "config") && (v = xattr(n, "big_endian_arr")))
			db->big_endian_arr = !strcmp(v, "1");
		if (!xname_is(n, "node"))
			continue;
		if (db->nnodes == cap) {
			struct adb_node *nn;

			cap = cap ? cap * 2 : 256;
			nn = realloc(db->nodes, cap * sizeof(*nn));
			if (!nn)
				return pcb_error(err, PCB_E_NOMEM,
						 "out of memory");
			db->nodes = nn;
		}
		v = xattr(n, "name");
		if (!v)
			return pcb_error(err, PCB_E_PARSE,
					 "'%s' line %ld: node without a name",
					 db->source, xmlGetLineNo(n));
		db->nodes[db->nnodes].name = v;
		db->nodes[db->nnodes].xml = n;
		if (!adb_parse_bits(xattr(n, "size"),
				    &db->nodes[db->nnodes].size))
			return pcb_error(err, PCB_E_PARSE,
					 "'%s': node '%s' has a bad size",
					 db->source, v);
		v = xattr(n, "attr_is_union");
		db->nodes[db->nnodes].is_union = v && !strcmp(v, "1");
		db->nnodes++;
	}
	if (db->nnodes > 1)	/* qsort(NULL, 0) is undefined */
		qsort(db->nodes, db->nnodes, sizeof(*db->nodes), node_cmp);

	/* Register names and ids: the union selector's enum (mstreg does
	 * the same).  Files without it still give nodes by name.
	 */
	ctrl = find_node(db, "access_reg_summary_ctrl_ext");
	summ = find_node(db, "access_reg_summary_ext");
	if (!ctrl || !summ)
		return 0;
	for (n = ctrl->xml->children; n; n = n->next) {
		const char *enums, *p;

		if (!xname_is(n, "field") || !(enums = xattr(n, "enum")))
			continue;
		for (p = enums; p && *p;) {
			const char *eq = strchr(p, '=');
			const char *comma = strchr(p, ',');
			const char *end = comma ? comma : p + strlen(p);
			uint64_t v;

			if (eq && eq < end &&
			    parse_part(eq + 1, (size_t)(end - eq - 1), false,
				       &v)) {
				struct adb_regname *r;

				r = realloc(db->regs,
					    (db->nregs + 1) * sizeof(*r));
				if (!r)
					return pcb_error(err, PCB_E_NOMEM,
							 "out of memory");
				db->regs = r;
				r[db->nregs].name =
					strndup(p, (size_t)(eq - p));
				r[db->nregs].id = (uint32_t)v;
				if (!r[db->nregs].name)
					return pcb_error(err, PCB_E_NOMEM,
							 "out of memory");
				db->nregs++;
			}
			p = comma ? comma + 1 : NULL;
		}
		break;
	}
	if (db->nregs > 1)
		qsort(db->regs, db->nregs, sizeof(*db->regs), regname_cmp);
	return 0;
}

static int adb_finish_load(struct adb_db **out, struct adb_db *db,
			   struct pcb_err *err)
{
	int rc;

	if (!db->doc) {
		const xmlError *xe = xmlGetLastError();

		rc = pcb_error(err, PCB_E_PARSE, "cannot parse '%s': %s",
			       db->source,
			       xe && xe->message ? xe->message : "bad XML");
		/* libxml2 messages end with a newline; keep one line */
		if (err)
			err->msg[strcspn(err->msg, "\n")] = '\0';
		goto err_free;
	}
	rc = adb_index(db, err);
	if (rc)
		goto err_free;
	*out = db;
	return 0;
err_free:
	adb_db_free(db);
	return rc;
}

int adb_db_load_file(struct adb_db **out, const char *path,
		     struct pcb_err *err)
{
	struct adb_db *db = calloc(1, sizeof(*db));

	if (!db || !(db->source = strdup(path))) {
		free(db);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	db->doc = xmlReadFile(path, NULL,
			      XML_PARSE_NONET | XML_PARSE_NOERROR |
			      XML_PARSE_NOWARNING | XML_PARSE_COMPACT |
			      XML_PARSE_NOBLANKS);
	return adb_finish_load(out, db, err);
}

int adb_db_load_memory(struct adb_db **out, const char *buf, size_t len,
		       const char *name, struct pcb_err *err)
{
	struct adb_db *db = calloc(1, sizeof(*db));

	if (!db || !(db->source = strdup(name))) {
		free(db);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	if (len > 0x7fffffff)
		len = 0x7fffffff;
	db->doc = xmlReadMemory(buf, (int)len, name, NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR |
				XML_PARSE_NOWARNING | XML_PARSE_NOBLANKS);
	return adb_finish_load(out, db, err);
}

void adb_db_free(struct adb_db *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < db->nregs; i++)
		free(db->regs[i].name);
	free(db->regs);
	free(db->nodes);
	if (db->doc)
		xmlFreeDoc(db->doc);
	free(db->source);
	free(db);
}

size_t adb_db_count(const struct adb_db *db)
{
	return db->nregs;
}

const char *adb_db_name(const struct adb_db *db, size_t i)
{
	return i < db->nregs ? db->regs[i].name : NULL;
}

uint32_t adb_db_id(const struct adb_db *db, size_t i)
{
	return i < db->nregs ? db->regs[i].id : 0;
}

/* ---- flattening --------------------------------------------------------- */

struct flat {
	const struct adb_db *db;
	struct adb_reg *reg;
	size_t cap;
	struct pcb_err *err;
};

struct fdesc {			/* one <field> of a node, offsets resolved */
	xmlNodePtr xml;
	uint32_t offset;	/* relative to the node, bits */
	uint32_t size;
	size_t order;
};

static int fdesc_cmp(const void *a, const void *b)
{
	const struct fdesc *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

static enum adb_access parse_access(const char *s, enum adb_access inherit)
{
	if (!s)
		return inherit;
	if (!strcmp(s, "INDEX"))
		return ADB_ACC_INDEX;
	if (!strcmp(s, "OP"))
		return ADB_ACC_OP;
	if (!strcmp(s, "RO"))
		return ADB_ACC_RO;
	if (!strcmp(s, "RW"))
		return ADB_ACC_RW;
	if (!strcmp(s, "WO"))
		return ADB_ACC_WO;
	return inherit;
}

const char *adb_access_name(enum adb_access acc)
{
	static const char *const names[] = {
		[ADB_ACC_NA] = "N/A", [ADB_ACC_INDEX] = "INDEX",
		[ADB_ACC_OP] = "OP", [ADB_ACC_RO] = "RO",
		[ADB_ACC_RW] = "RW", [ADB_ACC_WO] = "WO",
	};

	return acc <= ADB_ACC_WO ? names[acc] : "N/A";
}

static int flat_add(struct flat *fl, const char *name, const char *path,
		    uint32_t offset, uint32_t size, enum adb_access acc,
		    const char *enums, int sel_field, uint32_t sel_value)
{
	struct adb_reg *reg = fl->reg;
	struct adb_field *f;

	if (size == 0 || size > 32 || offset % 32 + size > 32)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "field '%s' of '%s' crosses a dword "
				 "(offset 0x%x.%u, %u bits)",
				 path, reg->node, offset / 32 * 4,
				 offset % 32, size);
	if ((offset / 32 + 1) * 4 > reg->size)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "field '%s' lies outside '%s' (%u bytes)",
				 path, reg->node, reg->size);
	if (reg->nfields == fl->cap) {
		struct adb_field *nf;

		if (fl->cap >= ADB_MAX_FIELDS)
			return pcb_error(fl->err, PCB_E_PARSE,
					 "register '%s' has too many fields",
					 reg->node);
		fl->cap = fl->cap ? fl->cap * 2 : 64;
		nf = realloc(reg->fields, fl->cap * sizeof(*nf));
		if (!nf)
			return pcb_error(fl->err, PCB_E_NOMEM,
					 "out of memory");
		reg->fields = nf;
	}
	f = &reg->fields[reg->nfields];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	f->path = strdup(path);
	f->enums = enums ? strdup(enums) : NULL;
	if (!f->name || !f->path || (enums && !f->enums)) {
		free(f->name);
		free(f->path);
		free(f->enums);
		return pcb_error(fl->err, PCB_E_NOMEM, "out of memory");
	}
	f->offset = offset;
	f->size = size;
	f->access = acc;
	f->sel_field = sel_field;
	f->sel_value = sel_value;
	reg->nfields++;
	return 0;
}

/* Offset of array element i (ADB notation), per spec section 1.5. */
static uint32_t elem_offset(const struct adb_db *db, uint32_t off0,
			    uint32_t esize, uint32_t i)
{
	uint32_t p0, pi;

	if (esize >= 32 || !db->big_endian_arr)
		return off0 + i * esize;
	p0 = off0 / 32 * 32 + 32 - off0 % 32 - esize;	/* MSB-first */
	pi = p0 + i * esize;
	return pi / 32 * 32 + 32 - pi % 32 - esize;
}

static int flatten_node(struct flat *fl, const struct adb_node *node,
			uint32_t base, const char *path, const char *suffix,
			enum adb_access inherit, int depth);

/* Resolve "$(parent).grp" against the fields flattened so far. */
static int union_selector(struct flat *fl, const char *sel,
			  const char *parent_path)
{
	char want[512];
	size_t i;

	if (!sel || strncmp(sel, "$(parent).", 10))
		return -1;
	snprintf(want, sizeof(want), "%s.%s", parent_path, sel + 10);
	for (i = 0; i < fl->reg->nfields; i++)
		if (!strcmp(fl->reg->fields[i].path, want))
			return (int)i;
	return -1;
}

/* One field of a node: a leaf, an array of leaves, or a subnode (array). */
/* An array field's first index, element count and element size:
 * low_bound..high_bound, or VARIABLE (one element of `size`, repeated to
 * the end of the enclosing node).
 */
static int array_bounds(struct flat *fl, const struct fdesc *fd,
			uint32_t node_size, const char *path,
			const char *fname, uint32_t *lo, uint32_t *count,
			uint32_t *esize)
{
	const char *lo_s = xattr(fd->xml, "low_bound");
	const char *hi_s = xattr(fd->xml, "high_bound");
	uint64_t v;

	if (!parse_part(lo_s, strlen(lo_s), false, &v) || v > 65535)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "field '%s.%s': bad low_bound", path, fname);
	*lo = (uint32_t)v;
	if (hi_s && !strcmp(hi_s, "VARIABLE")) {
		*count = fd->offset < node_size && *esize ?
			 (node_size - fd->offset) / *esize : 1;
		if (!*count)
			*count = 1;
		return 0;
	}
	if (!hi_s || !parse_part(hi_s, strlen(hi_s), false, &v) || v < *lo ||
	    v > 65535)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "field '%s.%s': bad high_bound", path, fname);
	*count = (uint32_t)v - *lo + 1;
	if (fd->size % *count)
		return pcb_error(fl->err, PCB_E_PARSE, "field '%s.%s': size not "
				 "a multiple of its %u elements", path, fname,
				 *count);
	*esize = fd->size / *count;
	return 0;
}

/* A union flattened at fpath (its leaves from index `first` on): tag
 * each member's leaves with the selector field and the value that
 * selects the member.
 */
static void tag_union_members(struct flat *fl, const struct adb_node *un,
			      int self, const char *fpath, size_t first)
{
	/* fields may have moved: index, not pointer */
	const struct adb_field *sf = self >= 0 ? &fl->reg->fields[self] : NULL;
	xmlNodePtr m;
	size_t j;

	if (!sf || !sf->enums)
		return;
	for (m = un->xml->children; m; m = m->next) {
		const char *mname = xattr(m, "name");
		const char *by = xattr(m, "selected_by");
		char mpath[512];
		uint32_t val;
		size_t plen;

		if (!xname_is(m, "field") || !mname || !by ||
		    !enum_lookup(sf->enums, by, &val, 0, NULL, 0))
			continue;
		plen = (size_t)snprintf(mpath, sizeof(mpath), "%s.%s", fpath,
					mname);
		for (j = first; j < fl->reg->nfields; j++) {
			struct adb_field *f = &fl->reg->fields[j];

			if (!strncmp(f->path, mpath, plen) &&
			    (f->path[plen] == '.' || f->path[plen] == '[' ||
			     f->path[plen] == '\0')) {
				f->sel_field = self;
				f->sel_value = val;
			}
		}
	}
}

static int flatten_field(struct flat *fl, const struct fdesc *fd,
			 uint32_t base, uint32_t node_size, const char *path,
			 const char *suffix, enum adb_access inherit,
			 int depth)
{
	const char *fname = xattr(fd->xml, "name");
	const char *sub = xattr(fd->xml, "subnode");
	enum adb_access acc = parse_access(xattr(fd->xml, "access"), inherit);
	const struct adb_node *subnode = NULL;
	char fpath[512], leaf[256];
	uint32_t lo = 0, count = 1, esize = fd->size, i;
	bool is_array = xattr(fd->xml, "low_bound") != NULL;
	int rc, self = -1;

	if (!fname)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "a field of '%s' has no name", path);
	if (sub && !(subnode = find_node(fl->db, sub)))
		return pcb_error(fl->err, PCB_E_PARSE,
				 "field '%s.%s' names unknown node '%s'",
				 path, fname, sub);
	if (is_array) {
		rc = array_bounds(fl, fd, node_size, path, fname, &lo, &count,
				  &esize);
		if (rc)
			return rc;
	}
	for (i = 0; i < count; i++) {
		uint32_t off = base + elem_offset(fl->db, fd->offset, esize, i);
		char nsuffix[128];
		size_t first = fl->reg->nfields;

		if (is_array) {
			snprintf(fpath, sizeof(fpath), "%s.%s[%u]", path,
				 fname, lo + i);
			snprintf(leaf, sizeof(leaf), "%s%s[%u]", fname, suffix,
				 lo + i);
			snprintf(nsuffix, sizeof(nsuffix), "%s_%u", suffix,
				 lo + i);
		} else {
			snprintf(fpath, sizeof(fpath), "%s.%s", path, fname);
			snprintf(leaf, sizeof(leaf), "%s%s", fname, suffix);
			snprintf(nsuffix, sizeof(nsuffix), "%s", suffix);
		}
		if (!subnode) {
			rc = flat_add(fl, leaf, fpath, off, esize, acc,
				      xattr(fd->xml, "enum"), -1, 0);
			if (rc)
				return rc;
			continue;
		}
		if (subnode->is_union)
			self = union_selector(fl, xattr(fd->xml,
							"union_selector"), path);
		rc = flatten_node(fl, subnode, off, fpath, nsuffix, acc,
				  depth + 1);
		if (rc)
			return rc;
		if (subnode->is_union)
			tag_union_members(fl, subnode, self, fpath, first);
	}
	return 0;
}

static int flatten_node(struct flat *fl, const struct adb_node *node,
			uint32_t base, const char *path, const char *suffix,
			enum adb_access inherit, int depth)
{
	struct fdesc *fds = NULL;
	size_t n = 0, cap = 0, i;
	xmlNodePtr c;
	int rc = 0;

	if (depth > ADB_MAX_DEPTH)
		return pcb_error(fl->err, PCB_E_PARSE,
				 "'%s' nests too deep (a cycle?)", path);
	for (c = node->xml->children; c; c = c->next) {
		if (!xname_is(c, "field"))
			continue;
		if (n == cap) {
			struct fdesc *nf;

			cap = cap ? cap * 2 : 16;
			nf = realloc(fds, cap * sizeof(*nf));
			if (!nf) {
				rc = pcb_error(fl->err, PCB_E_NOMEM,
					       "out of memory");
				goto out_free;
			}
			fds = nf;
		}
		fds[n].xml = c;
		fds[n].order = n;
		if (!adb_parse_bits(xattr(c, "offset"), &fds[n].offset) ||
		    !adb_parse_bits(xattr(c, "size"), &fds[n].size)) {
			rc = pcb_error(fl->err, PCB_E_PARSE,
				       "field '%s.%s' has a bad offset or size",
				       path, xattr(c, "name") ?
				       xattr(c, "name") : "?");
			goto out_free;
		}
		n++;
	}
	/* mstreg prints fields of a node in offset order */
	if (n > 1)
		qsort(fds, n, sizeof(*fds), fdesc_cmp);
	for (i = 0; i < n && !rc; i++)
		rc = flatten_field(fl, &fds[i], base, node->size, path, suffix,
				   inherit, depth);
out_free:
	free(fds);
	return rc;
}

void adb_reg_free(struct adb_reg *reg)
{
	size_t i;

	if (!reg)
		return;
	for (i = 0; i < reg->nfields; i++) {
		free(reg->fields[i].name);
		free(reg->fields[i].path);
		free(reg->fields[i].enums);
	}
	free(reg->fields);
	free(reg->name);
	free(reg->node);
	free(reg);
}

/* Register name -> node name through access_reg_summary_ext's members. */
static const char *member_for(const struct adb_db *db, const char *regname)
{
	const struct adb_node *summ = find_node(db, "access_reg_summary_ext");
	xmlNodePtr m;

	if (!summ)
		return NULL;
	for (m = summ->xml->children; m; m = m->next) {
		const char *by = xattr(m, "selected_by");

		if (xname_is(m, "field") && by && !strcmp(by, regname))
			return xattr(m, "subnode");
	}
	return NULL;
}

int adb_reg_load(const struct adb_db *db, const char *name,
		 struct adb_reg **out, struct pcb_err *err)
{
	const struct adb_regname *rn = NULL;
	const struct adb_node *node = NULL;
	const char *node_name = NULL;
	struct adb_reg *reg;
	struct flat fl;
	char *end;
	size_t i;
	int rc;

	/* by id */
	if (!strncasecmp(name, "0x", 2)) {
		unsigned long id = strtoul(name, &end, 16);

		for (i = 0; *end == '\0' && i < db->nregs; i++)
			if (db->regs[i].id == id)
				rn = &db->regs[i];
	}
	/* by register name */
	for (i = 0; !rn && i < db->nregs; i++)
		if (!strcasecmp(db->regs[i].name, name))
			rn = &db->regs[i];
	if (rn) {
		node_name = member_for(db, rn->name);
		node = node_name ? find_node(db, node_name) : NULL;
	}
	/* by node name */
	if (!node && !rn)
		node = find_node(db, name);
	if (!node)
		return pcb_error(err, PCB_E_NOENT,
				 rn ? "register '%s' has no layout in '%s'" :
				      "unknown register '%s' in '%s'",
				 name, db->source);
	reg = calloc(1, sizeof(*reg));
	if (!reg)
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	reg->name = strdup(rn ? rn->name : node->name);
	reg->node = strdup(node->name);
	reg->id = rn ? rn->id : 0;
	reg->size = node->size / 8;
	if (!rn) {
		/* a node name: find its register id if the db knows it */
		for (i = 0; i < db->nregs; i++) {
			const char *m = member_for(db, db->regs[i].name);

			if (m && !strcmp(m, node->name)) {
				reg->id = db->regs[i].id;
				break;
			}
		}
	}
	if (!reg->name || !reg->node) {
		adb_reg_free(reg);
		return pcb_error(err, PCB_E_NOMEM, "out of memory");
	}
	fl.db = db;
	fl.reg = reg;
	fl.cap = 0;
	fl.err = err;
	rc = flatten_node(&fl, node, 0, node->name, "", ADB_ACC_NA, 0);
	if (rc) {
		adb_reg_free(reg);
		return rc;
	}
	*out = reg;
	return 0;
}

/* ---- field access ------------------------------------------------------- */

int adb_reg_field_index(const struct adb_reg *reg, const char *name)
{
	size_t i, nlen = strlen(name);

	for (i = 0; i < reg->nfields; i++)
		if (!strcmp(reg->fields[i].name, name))
			return (int)i;
	/* path suffix on a '.' boundary */
	for (i = 0; i < reg->nfields; i++) {
		const char *p = reg->fields[i].path;
		size_t plen = strlen(p);

		if ((plen == nlen || (plen > nlen &&
				      p[plen - nlen - 1] == '.')) &&
		    !strcmp(p + plen - nlen, name))
			return (int)i;
	}
	return -1;
}

const struct adb_field *adb_reg_field(const struct adb_reg *reg,
				      const char *name)
{
	int i = adb_reg_field_index(reg, name);

	return i < 0 ? NULL : &reg->fields[i];
}

size_t adb_reg_name_width(const struct adb_reg *reg)
{
	size_t i, w = 0;

	for (i = 0; i < reg->nfields; i++)
		if (strlen(reg->fields[i].name) > w)
			w = strlen(reg->fields[i].name);
	return w;
}

uint32_t adb_field_max(const struct adb_field *f)
{
	return f->size >= 32 ? UINT32_MAX : (1u << f->size) - 1;
}

uint32_t adb_get(const struct adb_field *f, const uint8_t *buf)
{
	uint32_t d = adb_be32(buf + f->offset / 32 * 4);

	return (d >> (f->offset % 32)) & adb_field_max(f);
}

void adb_set(const struct adb_field *f, uint8_t *buf, uint32_t value)
{
	uint8_t *p = buf + f->offset / 32 * 4;
	uint32_t mask = adb_field_max(f) << (f->offset % 32);
	uint32_t d = adb_be32(p);

	d = (d & ~mask) | ((value << (f->offset % 32)) & mask);
	adb_put_be32(p, d);
}

bool adb_field_selected(const struct adb_reg *reg, const struct adb_field *f,
			const uint8_t *buf)
{
	if (f->sel_field < 0 || (size_t)f->sel_field >= reg->nfields)
		return true;
	return adb_get(&reg->fields[f->sel_field], buf) == f->sel_value;
}

bool adb_enum_name(const struct adb_field *f, uint32_t v, char *buf,
		   size_t len)
{
	uint32_t dummy;

	if (!f->enums)
		return false;
	return enum_lookup(f->enums, NULL, &dummy, v, buf, len);
}
