/* adb.h - register layouts loaded from ADB XML, and bit-exact pack/unpack.
 *
 * An ADB file (mstflint's register_access_table.adb or our reg/ppcc.adb) is
 * loaded once into a struct adb_db.  A register is then flattened into a
 * struct adb_reg: every leaf field with its absolute position, in the order
 * mstreg prints them.  Positions use the ADB notation: `offset` is
 * byte*8 + bit, where the byte is the start of a big-endian dword and the bit
 * counts from that dword's LSB; a field covers bits [bit+size-1 : bit].
 * No register gets hand-written shifts: everything goes through adb_get/set.
 *
 * Ownership: adb_db_load_* returns a db the caller frees with adb_db_free;
 * adb_reg_load returns a register the caller frees with adb_reg_free.  A
 * register does not point into its db, so it may outlive it.
 */
#ifndef PCCB_ADB_H
#define PCCB_ADB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum adb_access {
	ADB_ACC_NA = 0,
	ADB_ACC_INDEX,
	ADB_ACC_OP,
	ADB_ACC_RO,
	ADB_ACC_RW,
	ADB_ACC_WO,
};

struct adb_field {
	char *name;		/* as mstreg prints it: "text[3]", "prio_0" */
	char *path;		/* full path: "ppcc_reg_ext.text[3]" */
	uint32_t offset;	/* byte*8 + bit-from-LSB (ADB notation) */
	uint32_t size;		/* bits, 1..32 */
	enum adb_access access;
	char *enums;		/* "NAME=0xV,..." or NULL */
	int sel_field;		/* union member: selector field index, or -1 */
	uint32_t sel_value;	/* ... and the value that selects this member */
};

struct adb_reg {
	char *name;		/* register name ("PPCC") or node name */
	char *node;		/* node name ("ppcc_reg_ext") */
	uint32_t id;		/* register id (0x506e), 0 when unknown */
	uint32_t size;		/* bytes */
	size_t nfields;
	struct adb_field *fields;
};

struct adb_db;

int adb_db_load_file(struct adb_db **out, const char *path,
		     struct pcb_err *err);
int adb_db_load_memory(struct adb_db **out, const char *buf, size_t len,
		       const char *name, struct pcb_err *err);
void adb_db_free(struct adb_db *db);

/* Registers the file names in its access_reg_summary enum, sorted by name. */
size_t adb_db_count(const struct adb_db *db);
const char *adb_db_name(const struct adb_db *db, size_t i);
uint32_t adb_db_id(const struct adb_db *db, size_t i);

/* Flatten a register by name ("PPCC", case-insensitive), by id ("0x506e")
 * or by node name ("ppcc_reg_ext").
 */
int adb_reg_load(const struct adb_db *db, const char *name,
		 struct adb_reg **out, struct pcb_err *err);
void adb_reg_free(struct adb_reg *reg);

/* Field by leaf name or by a path suffix on '.' boundaries; NULL if unknown.
 * When a leaf name is ambiguous the first field in print order wins.
 */
const struct adb_field *adb_reg_field(const struct adb_reg *reg,
				      const char *name);
int adb_reg_field_index(const struct adb_reg *reg, const char *name);

/* Longest field name (for mstreg-style tables). */
size_t adb_reg_name_width(const struct adb_reg *reg);

/* Is the union member selected by the current buffer (true when no union)? */
bool adb_field_selected(const struct adb_reg *reg, const struct adb_field *f,
			const uint8_t *buf);

uint32_t adb_get(const struct adb_field *f, const uint8_t *buf);
void adb_set(const struct adb_field *f, uint8_t *buf, uint32_t value);
uint32_t adb_field_max(const struct adb_field *f);

const char *adb_access_name(enum adb_access acc);

/* The enum name of value v for field f ("PPCC"), or NULL. */
bool adb_enum_name(const struct adb_field *f, uint32_t v, char *buf,
		   size_t len);

/* Big-endian dword helpers shared by every register user. */
uint32_t adb_be32(const uint8_t *p);
void adb_put_be32(uint8_t *p, uint32_t v);

#endif
