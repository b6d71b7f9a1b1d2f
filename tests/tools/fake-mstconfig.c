/* fake-mstconfig - mstflint 4.21's `mstconfig` for `query`, with the
 * output format of its mlxconfig/mlxcfg_ui.cpp (printOpening,
 * printConfHeader, printSingleParam: "%-16s" columns, a value wider than
 * 16 followed by one space, "NAME(n)" for enums, '*' where the next value
 * differs), its -E- errors on stdout and exit code 3.  One ConnectX-7's
 * settings, a few of them changed for the next boot.
 *
 * Environment: FAKE_MSTCONFIG_DEVICE (default 0000:08:00.0) is the one
 * device that exists; FAKE_MSTCONFIG_MODE picks a firmware or a failure:
 *   ok        Default, Current and Next Boot (the default)
 *   nocurrent firmware reads no current values: Default and Next Boot
 *   garbage   a table row cut short
 *   binary    bytes that are no text
 *   notable   the banner only
 *   tlvfail   the table, then "Failed to query some of the TLVs" (exit 3)
 *   hang      never answers
 *   crash     killed by SIGSEGV after the banner
 *   dpu       a BlueField-3 in DPU mode: INTERNAL_CPU_MODEL
 *             EMBEDDED_CPU(1) first
 * FAKE_MSTCONFIG_ARGS, a file that gets the argv of each run.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name, *def, *cur, *next;
} params[] = {
	{ "MEMIC_BAR_SIZE", "0", "0", "0" },
	{ "NUM_OF_VFS", "16", "16", "16" },
	{ "SRIOV_EN", "True(1)", "True(1)", "True(1)" },
	{ "LINK_TYPE_P1", "ETH(2)", "ETH(2)", "ETH(2)" },
	{ "ROCE_CONTROL", "ROCE_ENABLE(2)", "ROCE_ENABLE(2)",
	  "ROCE_ENABLE(2)" },
	{ "ROCE_NEXT_PROTOCOL", "254", "254", "254" },
	{ "ESWITCH_HAIRPIN_DESCRIPTORS", "Array[0..7]", "Array[0..7]",
	  "Array[0..7]" },
	{ "ROCE_CC_PRIO_MASK_P1", "255", "255", "255" },
	{ "ROCE_CC_ALGORITHM_P1", "ECN(0)", "ECN(0)", "ECN(0)" },
	{ "ROCE_CC_LEGACY_DCQCN_P1", "True(1)", "True(1)", "False(0)" },
	{ "USER_PROGRAMMABLE_CC", "False(0)", "False(0)", "False(0)" },
	{ "CNP_DSCP_P1", "48", "48", "48" },
	{ "CNP_802P_PRIO_P1", "6", "6", "6" },
	{ "RPG_AI_RATE_P1", "5", "5", "5" },
	{ "RPG_GD_P1", "11", "11", "11" },
	{ "MIN_TIME_BETWEEN_CNPS_P1", "4", "0", "0" },
	{ "RATE_REDUCE_MONITOR_PERIOD_P1", "4", "4", "2" },
	{ "INITIAL_ALPHA_VALUE_P1", "1023", "1023", "1023" },
	{ "HPCC_INT_EN", "N/A", "N/A", "N/A" },
	{ "LOG_TX_PSN_WINDOW", "7", "7", "7" },
};

static int help(void)
{
	printf("    NAME:\n        mstconfig\n    SYNOPSIS:\n"
	       "        mstconfig [Options] <Commands> [Parameters]\n");
	return 3;
}

/* printParam: 16 wide; what it returns decides the space before the
 * next one.
 */
static int value(const char *v, int width)
{
	if (width > 16)
		putchar(' ');
	return printf("%-16s", v);
}

static void opening(const char *dev)
{
	printf("\nDevice #1:\n----------\n\n");
	printf("%-16s%-16s\n", "Device type:", "ConnectX7");
	printf("%-16s%-16s\n", "Name:", "MCX75310AAS-NEA_Ax");
	printf("%-16s%-16s\n", "Description:", "NVIDIA ConnectX-7 HHHL "
	       "adapter card; 400GbE / NDR IB (default mode); Single-port "
	       "OSFP; PCIe 5.0 x16; Crypto Disabled; Secure Boot Enabled");
	printf("%-16s%-16s\n", "Device:", dev);
	printf("\n");
}

static int query(const char *dev, bool verbose, const char *mode)
{
	bool cur = verbose && strcmp(mode, "nocurrent");
	bool star = false;
	size_t i;

	opening(dev);
	fflush(stdout);
	if (!strcmp(mode, "crash")) {
		/* the default action, not a sanitizer's handler: a death by
		 * the signal in every build */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	if (!strcmp(mode, "notable"))
		return 0;
	if (verbose && cur)
		printf("%-16s%36s%16s%18s", "Configurations:", "Default",
		       "Current", "Next Boot");
	else if (verbose)
		printf("%-16s%36s%18s", "Configurations:", "Default",
		       "Next Boot");
	else
		printf("%-16s%38s", "Configurations:", "Next Boot");
	printf("\n");
	if (!strcmp(mode, "dpu")) {
		int w = 0;

		printf("         %-36s", "INTERNAL_CPU_MODEL");
		if (verbose)
			w = value("EMBEDDED_CPU(1)", w);
		if (cur)
			w = value("EMBEDDED_CPU(1)", w);
		value("EMBEDDED_CPU(1)", w);
		printf("\n");
	}
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		bool diff = verbose && (strcmp(params[i].next, params[i].def) ||
					(cur && strcmp(params[i].next,
						       params[i].cur)));
		int w = 0;

		if (!strcmp(mode, "garbage") && i == 9) {
			printf("         %-36s%-16s\n", params[i].name, "Tr");
			return 0;
		}
		printf("%s        %-36s", diff ? "*" : " ", params[i].name);
		if (verbose)
			w = value(params[i].def, w);
		if (cur)
			w = value(params[i].cur, w);
		value(params[i].next, w);
		printf("\n");
		star |= diff;
	}
	if (star)
		printf("The '*' shows parameters with next value different "
		       "from default/current value.\n");
	if (verbose && !cur)
		printf("Device Firmware does not support reading current "
		       "configurations\n");
	if (!strcmp(mode, "tlvfail")) {
		printf("-E- Failed to query some of the TLVs:\n    Failed to "
		       "query the next values of the following TLVs:\n    "
		       "nv_roce_cc nv_pcc_conf \n\n");
		return 3;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *want = getenv("FAKE_MSTCONFIG_DEVICE");
	const char *mode = getenv("FAKE_MSTCONFIG_MODE");
	const char *log = getenv("FAKE_MSTCONFIG_ARGS");
	const char *dev = NULL, *cmd = NULL;
	bool verbose = false;
	int i;

	if (!want)
		want = "0000:08:00.0";
	if (!mode)
		mode = "ok";
	if (log) {
		FILE *fp = fopen(log, "a");

		for (i = 0; fp && i < argc; i++)
			fprintf(fp, "%s%s", argv[i], i + 1 < argc ? " " : "\n");
		if (fp)
			fclose(fp);
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if ((!strcmp(a, "-d") || !strcmp(a, "--dev")) && i + 1 < argc)
			dev = argv[++i];
		else if (!strcmp(a, "-e") || !strcmp(a, "--enable_verbosity"))
			verbose = true;
		else if (!strcmp(a, "-y") || !strcmp(a, "--yes"))
			;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return help(), 0;
		else if (a[0] == '-') {
			printf("-E- invalid argument: %s\n", a);
			return help();
		} else if (!cmd) {
			cmd = a;
		} else {
			printf("-E- Syntax error in: %s\n", a);
			return 3;
		}
	}
	if (!cmd) {
		printf("-E- No command found. For more information please "
		       "read the help message:\n");
		return help();
	}
	if (strcmp(cmd, "q") && strcmp(cmd, "query")) {
		printf("-E- fake-mstconfig: only query, not '%s'\n", cmd);
		return 3;
	}
	if (!dev) {
		printf("-E- No devices found.\n");
		return 3;
	}
	if (!strcmp(mode, "hang")) {
		pause();
		return 3;
	}
	if (!strcmp(mode, "binary")) {
		fwrite("\x7f" "ELF\x02\x01\x01\0\0\0\n\xff\xfe Configurations:"
		       "\x01\x02\n", 1, 32, stdout);
		return 0;
	}
	if (strcmp(dev, want)) {
		printf("-E- Failed to open the device\n");
		return 3;
	}
	return query(dev, verbose, mode);
}
