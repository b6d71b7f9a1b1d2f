/* reg.c - `reg`: ADB layouts as mstreg shows them, encode and decode. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static int load(struct session *s, const char *name, struct adb_db **db,
		struct adb_reg **reg)
{
	int rc = cmd_open_adb(s, name, db);

	if (rc)
		return rc;
	rc = adb_reg_load(*db, name, reg, &s->err);
	if (rc) {
		adb_db_free(*db);
		*db = NULL;
	}
	return rc;
}

static int cmd_reg_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "name", "NAME", 0 }, { "id", "ID", 0 },
	};
	struct adb_db *db = NULL;
	struct tbl t;
	size_t i;
	int rc = cmd_open_adb(s, NULL, &db);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	tbl_init(&t, cols, 2);
	for (i = 0; i < adb_db_count(db); i++) {
		tbl_row(&t);
		tbl_str(&t, adb_db_name(db, i));
		tbl_hex(&t, adb_db_id(db, i), 4);
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	adb_db_free(db);
	return 0;
}

/* A text rule of n '=' under and over mstreg's tables. */
static void rule(struct out *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out_text(o, "=");
	out_nl(o);
}

/* mstreg 4.21 --show_reg layout: W = longest name + 3. */
static int cmd_reg_show(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	struct adb_db *db = NULL;
	struct adb_reg *reg = NULL;
	char name_fmt[24];
	size_t i;
	int w, rc = load(s, argv[0], &db, &reg);

	(void)argc;
	if (rc)
		return rc;
	w = (int)adb_reg_name_width(reg) + 3;
	/* the name column is W wide, so its format is made here */
	snprintf(name_fmt, sizeof(name_fmt), "%%-%ds | ", w);
	out_obj_begin(o, NULL);
	out_str(o, "register", reg->name);
	out_str(o, "node", reg->node);
	out_u64(o, "id", reg->id);
	out_u64(o, "size", reg->size);
	out_text(o, "%-*s | %-10s | %-8s | %-8s | %-8s\n", w, "Field Name",
		 "Address (Bytes)", "Offset (Bits)", "Size (Bits)", "Access");
	rule(o, (size_t)w + 58);
	out_arr_begin(o, "fields");
	for (i = 0; i < reg->nfields; i++) {
		const struct adb_field *f = &reg->fields[i];

		out_obj_begin(o, NULL);
		out_field_str(o, "name", name_fmt, f->name);
		out_field_uint(o, "address", "0x%08x      | ",
			       f->offset / 32 * 4);
		out_field_uint(o, "offset", "%-8u      | ", f->offset % 32);
		out_field_uint(o, "size", "%-8u    | ", f->size);
		out_field_str(o, "access", "%-15s\n",
			      adb_access_name(f->access));
		out_obj_end(o);
	}
	out_arr_end(o);
	rule(o, (size_t)w + 58);
	out_obj_end(o);
	adb_reg_free(reg);
	adb_db_free(db);
	return 0;
}

/* Values as mstreg reads them: strtoul base 0, non-negative, 32-bit. */
static int parse_field_value(struct session *s, const char *tok,
			     const char *v, uint32_t *out)
{
	unsigned long long x;
	char *end;

	if (*v == '-')
		return pcb_error(&s->err, PCB_E_RANGE,
				 "'%s': value must be non-negative", tok);
	if (!*v || *v == '+' || *v == ' ')
		return pcb_error(&s->err, PCB_E_INVAL,
				 "'%s': value is missing or not a number", tok);
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || *end)
		return pcb_error(&s->err, PCB_E_INVAL,
				 "'%s': '%s' is not a number", tok, v);
	if (x > UINT32_MAX)
		return pcb_error(&s->err, PCB_E_RANGE,
				 "'%s': value exceeds 32 bits", tok);
	*out = (uint32_t)x;
	return 0;
}

static void print_dwords(struct session *s, const struct adb_reg *reg,
			 const uint8_t *buf)
{
	size_t i, n = reg->size / 4;

	out_obj_begin(&s->out, NULL);
	out_str(&s->out, "register", reg->name);
	out_arr_begin(&s->out, "dwords");
	for (i = 0; i < n; i++) {
		char h[16];

		snprintf(h, sizeof(h), "%08x", adb_be32(buf + 4 * i));
		/* text: eight to a line */
		out_field_str(&s->out, NULL,
			      i % 8 == 7 || i + 1 == n ? "%s\n" : "%s ", h);
	}
	out_arr_end(&s->out);
	out_obj_end(&s->out);
}

static int cmd_reg_encode(struct session *s, int argc, char **argv)
{
	struct adb_db *db = NULL;
	struct adb_reg *reg = NULL;
	uint8_t *buf = NULL, *seen = NULL;
	int a, rc = load(s, argv[0], &db, &reg);

	if (rc)
		return rc;
	buf = calloc(1, reg->size + 4);
	seen = calloc(reg->nfields + 1, 1);
	if (!buf || !seen) {
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		goto out_free;
	}
	for (a = 1; a < argc; a++) {
		char *list = strdup(argv[a]), *tok, *save = NULL;

		if (!list) {
			rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
			goto out_free;
		}
		for (tok = strtok_r(list, ",", &save); tok && !rc;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			int fi;
			uint32_t v = 0;

			if (!eq || eq == tok || strchr(eq + 1, '=')) {
				rc = pcb_error(&s->err, PCB_E_INVAL,
					       "'%s' is not FIELD=VALUE", tok);
				break;
			}
			*eq = '\0';
			fi = adb_reg_field_index(reg, tok);
			if (fi < 0) {
				rc = pcb_error(&s->err, PCB_E_NOENT,
					       "%s has no field '%s'",
					       reg->name, tok);
				break;
			}
			*eq = '=';
			rc = parse_field_value(s, tok, eq + 1, &v);
			if (rc)
				break;
			if (v > adb_field_max(&reg->fields[fi])) {
				rc = pcb_error(&s->err, PCB_E_RANGE,
					       "'%s': 0x%x does not fit the "
					       "%u-bit field", tok, v,
					       reg->fields[fi].size);
				break;
			}
			if (seen[fi]) {
				rc = pcb_error(&s->err, PCB_E_INVAL,
					       "field '%s' appears twice",
					       reg->fields[fi].name);
				break;
			}
			seen[fi] = 1;
			adb_set(&reg->fields[fi], buf, v);
		}
		free(list);
		if (rc)
			goto out_free;
	}
	print_dwords(s, reg, buf);
out_free:
	free(buf);
	free(seen);
	adb_reg_free(reg);
	adb_db_free(db);
	return rc;
}

/* mstreg's GET table: "Field Name | Data", W = longest name + 3. */
static int cmd_reg_decode(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	struct adb_db *db = NULL;
	struct adb_reg *reg = NULL;
	uint8_t *buf = NULL;
	size_t i, nd = 0;
	int a, w, rc = load(s, argv[0], &db, &reg);

	if (rc)
		return rc;
	buf = calloc(1, reg->size + 4);
	if (!buf) {
		rc = pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
		goto out_free;
	}
	for (a = 1; a < argc; a++) {
		const char *h = argv[a];
		unsigned long long x;
		char *end;

		if (!strncasecmp(h, "0x", 2))
			h += 2;
		errno = 0;
		x = *h && *h != '-' && *h != '+' ? strtoull(h, &end, 16) : 0;
		if (!*h || *h == '-' || *h == '+' || errno || *end ||
		    strlen(h) > 8) {
			rc = pcb_error(&s->err, PCB_E_INVAL,
				       "'%s' is not a hex dword", argv[a]);
			goto out_free;
		}
		if (nd >= reg->size / 4) {
			rc = pcb_error(&s->err, PCB_E_RANGE,
				       "%s has %u dwords; got more",
				       reg->name, reg->size / 4);
			goto out_free;
		}
		adb_put_be32(buf + 4 * nd++, (uint32_t)x);
	}
	w = (int)adb_reg_name_width(reg) + 3;
	out_obj_begin(o, NULL);
	out_str(o, "register", reg->name);
	out_text(o, "%-*s | %-8s\n", w, "Field Name", "Data");
	rule(o, (size_t)w + 14);
	out_obj_begin(o, "fields");
	for (i = 0; i < reg->nfields; i++) {
		const struct adb_field *f = &reg->fields[i];

		if (!adb_field_selected(reg, f, buf))
			continue;
		/* the field's name is its JSON key */
		out_text(o, "%-*s | ", w, f->name);
		out_field_uint(o, f->name, "0x%08x\n", adb_get(f, buf));
	}
	out_obj_end(o);
	rule(o, (size_t)w + 14);
	out_obj_end(o);
out_free:
	free(buf);
	adb_reg_free(reg);
	adb_db_free(db);
	return rc;
}

static void cand_registers(struct session *s, struct cands *c)
{
	struct pcb_err keep = s->err;
	struct adb_db *db = NULL;
	size_t i;

	if (!cmd_open_adb(s, NULL, &db)) {
		for (i = 0; i < adb_db_count(db); i++)
			cand_add(c, adb_db_name(db, i));
		adb_db_free(db);
	}
	s->err = keep;
}

static bool reg_complete(struct session *s, char **argv, int argc,
			 struct cands *c)
{
	(void)argv;
	if (argc == 0)
		cand_registers(s, c);
	return true;
}

const struct cmd_row cmd_reg_verbs[] = {
	{
		.name = "list",
		.fn = cmd_reg_list,
		.args = "",
		.help = "registers of the ADB (mstflint's when installed)",
		.example = "reg list",
		.flags = CMD_DEFAULT,
		.complete = reg_complete,
	},
	{
		.name = "show",
		.fn = cmd_reg_show,
		.min_args = 1,
		.max_args = 1,
		.args = "REGISTER",
		.help = "fields with address, bit offset, size, access (mstreg "
			"--show_reg)",
		.example = "reg show PPCC",
		.complete = reg_complete,
	},
	{
		.name = "encode",
		.fn = cmd_reg_encode,
		.min_args = 1,
		.max_args = -1,
		.args = "REGISTER FIELD=VALUE,...",
		.help = "pack fields into big-endian dwords, 8 per line",
		.example = "reg encode PPCC "
			"cmd_type=8,local_port=1,algo_slot=1,value=63570",
		.complete = reg_complete,
	},
	{
		.name = "decode",
		.fn = cmd_reg_decode,
		.min_args = 1,
		.max_args = -1,
		.args = "REGISTER HEXDWORD...",
		.help = "unpack big-endian dwords into fields (mstreg's table)",
		.example = "reg decode PPCC 00010008 00020001 0000f852",
		.complete = reg_complete,
	},
	{ 0 }
};
