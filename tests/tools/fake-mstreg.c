/* fake-mstreg - mstflint 4.21's `mstreg` for the PPCC register, on the sim
 * firmware: the same command line, the same output byte for byte, the
 * same -E- errors and exit codes (../shared/spec/ppcc-mstreg-fwctl.md 2).
 *
 * Environment: FAKE_MSTREG_DEVICE (default 0000:08:00.0) is the one device
 * that exists; FAKE_MSTREG_SIM (default "fake") the sim device behind it;
 * FAKE_MSTREG_COUNT, a file that gets one line per run;
 * FAKE_MSTREG_DELAY_MS, how long each run takes at least (mstreg on a
 * real host takes tens to hundreds of ms); FAKE_MSTREG_LOCKED, a file
 * holding a number N: while N > 0 a run loses mstflint's lock as the real
 * one does (perror's line, then a -E- line, exit 1) and writes N - 1;
 * FAKE_MSTREG_REFUSE=1, a host refused register access (a BlueField's
 * restricted host: every run fails with a -E- line, exit 1; the real
 * text is not known to us, this one is the generic failure).
 * FAKE_MSTREG_FAIL_CMD=N: every SET of cmd_type N fails as a device
 * refusal (BAD_PARAM) before reaching the firmware (fault injection).
 * FAKE_MSTREG_SHORT_BULK=N: a bulk get's reply carries at most N values
 * (text_length cut to 4N bytes), as a firmware that answers short would.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "adb.h"
#include "paths.h"
#include "ppcc.h"
#include "sim/firmware.h"

/* What main holds, released on every exit path. */
static struct adb_reg *g_reg;
static struct simfw *g_fw;

static void release(void)
{
	adb_reg_free(g_reg);
	simfw_close(g_fw);
	g_reg = NULL;
	g_fw = NULL;
}

static void close_fw(void)
{
	simfw_close(g_fw);
	g_fw = NULL;
}

static int die(const char *fmt, const char *arg)
{
	fputs("-E- ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

/* FAKE_MSTREG_SHORT_BULK: cut a bulk get's reply to N values. */
static void short_bulk(const struct adb_reg *r, uint8_t *buf)
{
	const char *e = getenv("FAKE_MSTREG_SHORT_BULK");
	const struct adb_field *op = adb_reg_field(r, "cmd_type");
	const struct adb_field *len = adb_reg_field(r, "text_length");
	uint32_t n;

	if (!e || !*e || !op || !len || adb_get(op, buf) != PPCC_BULK_GET)
		return;
	n = (uint32_t)strtoul(e, NULL, 0) * 4;
	if (adb_get(len, buf) > n)
		adb_set(len, buf, n);
}

static void table(const struct adb_reg *r, const uint8_t *buf)
{
	int w = (int)adb_reg_name_width(r) + 3, i;
	size_t k;

	printf("%-*s | %-8s\n", w, "Field Name", "Data");
	for (i = 0; i < w + 14; i++)
		putchar('=');
	putchar('\n');
	for (k = 0; k < r->nfields; k++)
		printf("%-*s | 0x%08x\n", w, r->fields[k].name,
		       adb_get(&r->fields[k], buf));
	for (i = 0; i < w + 14; i++)
		putchar('=');
	putchar('\n');
}

static const char *status_text(uint32_t st)
{
	switch (st) {
	case 1:
		return "Device is busy";
	case 4:
		return "Register not supported";
	case 6:
		return "Method not supported";
	case 7:
		return "Bad parameter";
	case 8:
		return "Resource unavailable";	/* 4.21's m_err2str */
	default:
		return "Unknown error";
	}
}

/* "a=1,b=2" into buf; `want` is the access the option allows. */
static int apply(const struct adb_reg *r, uint8_t *buf, const char *list,
		 enum adb_access want)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		const struct adb_field *f;
		unsigned long v;

		if (!eq || eq == tok || !eq[1] || strchr(eq + 1, '=')) {
			rc = die("Argument: %s is invalid", tok);
			break;
		}
		*eq = '\0';
		f = adb_reg_field(r, tok);
		if (!f) {
			char q[300];

			snprintf(q, sizeof(q), "\"%s\"", tok);
			rc = die("Can't find field name: %s", q);
			break;
		}
		if (eq[1] == '-') {
			fprintf(stderr, "-E- Argument: %s is invalid. It must "
				"be non-negative.\n", eq + 1);
			rc = 1;
			break;
		}
		errno = 0;
		v = strtoul(eq + 1, &end, 0);
		if (errno || *end || v > 0xffffffffUL) {
			fprintf(stderr, "-E- Argument: %s is invalid.\n",
				eq + 1);
			rc = 1;
			break;
		}
		if (want == ADB_ACC_INDEX && f->access != ADB_ACC_INDEX)
			rc = die("Field: %s is not a INDEX.", f->name);
		else if (want == ADB_ACC_OP && f->access != ADB_ACC_OP)
			rc = die("Field: %s is not a OP.", f->name);
		else if (want == ADB_ACC_RW && f->access == ADB_ACC_RO)
			rc = die("Field: %s is ReadOnly", f->name);
		else
			adb_set(f, buf, (uint32_t)v);
	}
	free(copy);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ "device", required_argument, NULL, 'd' },
		{ "adb_file", required_argument, NULL, 'a' },
		{ "reg_name", required_argument, NULL, 'N' },
		{ "reg_id", required_argument, NULL, 'I' },
		{ "reg_len", required_argument, NULL, 'L' },
		{ "indexes", required_argument, NULL, 'i' },
		{ "op", required_argument, NULL, 'o' },
		{ "get", no_argument, NULL, 'g' },
		{ "set", required_argument, NULL, 's' },
		{ "yes", no_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dev = NULL, *reg = NULL, *idx = NULL, *op = NULL;
	const char *set = NULL, *want_dev, *count;
	char path[4096], line[64];
	struct adb_db *db = NULL;
	struct adb_reg *r = NULL;
	struct simfw *fw = NULL;
	struct pcb_err err = { 0 };
	uint8_t buf[256] = { 0 }, user[256] = { 0 };
	int c, get = 0, yes = 0, i;
	uint32_t st = 0;

	atexit(release);
	if (getenv("FAKE_MSTREG_DELAY_MS")) {
		long ms = atol(getenv("FAKE_MSTREG_DELAY_MS"));
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

		while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	if (getenv("FAKE_MSTREG_LOCKED")) {
		FILE *fp = fopen(getenv("FAKE_MSTREG_LOCKED"), "r+");
		long left = 0;

		if (fp && fscanf(fp, "%ld", &left) == 1 && left > 0) {
			rewind(fp);
			fprintf(fp, "%ld\n", left - 1);
			fclose(fp);
			fputs("failed to perform lock operation.: Resource "
			      "temporarily unavailable\n-E- Failed to send "
			      "access register: Resource temporarily "
			      "unavailable\n", stderr);
			return 1;
		}
		if (fp)
			fclose(fp);
	}
	if (getenv("FAKE_MSTREG_REFUSE")) {
		fputs("-E- Failed to send access register: Operation not "
		      "permitted\n", stderr);
		return 1;
	}
	count = getenv("FAKE_MSTREG_COUNT");
	if (count && *count) {
		FILE *fp = fopen(count, "a");

		if (fp) {
			fputs("run\n", fp);
			fclose(fp);
		}
	}
	while ((c = getopt_long_only(argc, argv, "hvd:a:i:o:gs:y", opts,
				     NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("NAME:\n    mstreg\nSYNOPSIS:\n    mstreg [OPTIONS]\n");
			return 0;
		case 'v':
			printf("mstreg, mstflint 4.21.0, Git SHA Hash: N/A\n");
			return 0;
		case 'd':
			dev = optarg;
			break;
		case 'N':
			reg = optarg;
			break;
		case 'i':
			idx = optarg;
			break;
		case 'o':
			op = optarg;
			break;
		case 'g':
			get = 1;
			break;
		case 's':
			set = optarg;
			break;
		case 'y':
			yes = 1;
			break;
		default:
			break;	/* 4.21 parses on */
		}
	}
	if (!dev)
		return die("%s", "you must provide a device name");
	want_dev = getenv("FAKE_MSTREG_DEVICE");
	if (!want_dev || !*want_dev)
		want_dev = "0000:08:00.0";
	if (strcmp(dev, want_dev)) {
		fprintf(stderr, "-E- Failed to open device: \"%s\", No such "
			"file or directory\n", dev);
		return 1;
	}
	if (get && set)
		return die("%s", "failed to parse arguments. incompatible flags "
			   "combination, please read help");
	if (!get && !set)
		return die("%s", "no operation flag, please read help");
	if (!reg)
		return die("%s", "you must provide register name or register "
			   "id when SET/GET");
	if (pcb_data_file(path, sizeof(path), "reg/ppcc.adb", &err) ||
	    adb_db_load_file(&db, path, &err))
		return die("%s", err.msg);
	if (strcmp(reg, "PPCC") || adb_reg_load(db, reg, &r, &err)) {
		adb_db_free(db);
		return die("Can't find access register name: %s", reg);
	}
	adb_db_free(db);
	g_reg = r;
	if ((idx && apply(r, buf, idx, ADB_ACC_INDEX)) ||
	    (op && apply(r, buf, op, ADB_ACC_OP)) ||
	    (set && apply(r, buf, set, ADB_ACC_RW)))
		return 1;
	for (i = 0; i < (int)r->nfields; i++) {
		char have[64];

		if (r->fields[i].access != ADB_ACC_INDEX)
			continue;
		snprintf(have, sizeof(have), "%s=", r->fields[i].name);
		if (!idx || !strstr(idx, have))
			return die("Index: %s was not provided",
				   r->fields[i].name);
	}
	{
		const char *sim = getenv("FAKE_MSTREG_SIM");

		if (simfw_open(&fw, sim && *sim ? sim : "fake", &err))
			return die("%s", err.msg);
		g_fw = fw;
	}
	if (get) {
		printf("Sending access register...\n\n");
		fflush(stdout);
		simfw_access(fw, REG_GET, PPCC_REG_ID, buf, sizeof(buf), &st,
			     &err);
		if (st) {
			close_fw();
			return die("Failed to send access register: %s",
				   status_text(st));
		}
		short_bulk(r, buf);
		table(r, buf);
		close_fw();
		return 0;
	}
	/* SET: read, re-apply the user's fields, confirm, write */
	memcpy(user, buf, sizeof(user));
	simfw_access(fw, REG_GET, PPCC_REG_ID, buf, sizeof(buf), &st, &err);
	if (st) {
		close_fw();
		return die("Failed to send access register: %s",
			   status_text(st));
	}
	if ((idx && apply(r, buf, idx, ADB_ACC_INDEX)) ||
	    (op && apply(r, buf, op, ADB_ACC_OP)) ||
	    apply(r, buf, set, ADB_ACC_RW)) {
		close_fw();
		return 1;
	}
	printf("You are about to send access register: %s with the following "
	       "data:\n", r->name);
	table(r, buf);
	printf("\n %s ? (y/n) [n] : ", "Do you want to continue");
	if (yes) {
		printf("y\n");
	} else {
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin) ||
		    (strcasecmp(line, "y\n") && strcasecmp(line, "yes\n"))) {
			close_fw();
			return 0;	/* declined: nothing sent, exit 0 */
		}
	}
	printf(" Sending access register...\n\n");
	{
		const char *fail = getenv("FAKE_MSTREG_FAIL_CMD");
		const struct adb_field *f = adb_reg_field(r, "cmd_type");

		if (fail && *fail && f &&
		    adb_get(f, buf) == (uint32_t)strtoul(fail, NULL, 0)) {
			close_fw();
			return die("Failed to send access register: %s",
				   status_text(REG_STATUS_BAD_PARAM));
		}
	}
	simfw_access(fw, REG_SET, PPCC_REG_ID, buf, sizeof(buf), &st, &err);
	close_fw();
	if (st)
		return die("Failed to send access register: %s",
			   status_text(st));
	return 0;
}
