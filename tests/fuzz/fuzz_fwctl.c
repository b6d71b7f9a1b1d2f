/* fuzz_fwctl.c - fwctl replies (reg/fwctl.c fwctl_access_reg_out) and
 * what pccbench makes of the data in them.
 *
 * Input: the replies of a real NIC, each a 2-byte big-endian length and
 * that many bytes of the ACCESS_REG output mailbox (16-byte header with
 * status and syndrome, then the PPCC register).  A fake device with
 * REG_CAP_REAL hands them out in order (fz_nic_session, FZ_NIC_FWCTL) to
 * the commands a user runs first: algo list, param list, counter show,
 * param get; each reply is decoded by fwctl_access_reg_out as the fwctl
 * backend does, then by the PPCC code and the session's views.
 * FZ_SEEDS=DIR writes seeds recorded on the sim device and exits.
 */
#include <stdlib.h>

#include "fuzz.h"

/* What a user runs first on a NIC; the seeds record its replies. */
static const char cmds[] = "algo list; param list 1; counter show 1; "
			   "param get slot 1 ALPHA";

/* FZ_SEEDS=DIR: the replies of the sim device, as it starts and with
 * counters enabled on slot 1 or 2, then exit.
 */
static void seeds(void)
{
	fz_nic_seed(FZ_NIC_FWCTL, NULL, cmds, "sim-default");
	fz_nic_seed(FZ_NIC_FWCTL, "algo enable 1 counters", cmds,
		    "sim-counters");
	fz_nic_seed(FZ_NIC_FWCTL, "algo enable 2 counters", cmds, "sim-dcqcn");
	fz_nic_seed(FZ_NIC_FWCTL, NULL, "algo list", "algo-list");
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	if (fz_seeds_dir())
		seeds();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;

	if (size > 32768)
		return -1;
	fz_begin();
	if (!fz_nic_session(&s, "fznic", FZ_NIC_FWCTL, data, size)) {
		s.force = true;
		fz_run(&s, "%s", cmds);
	}
	sess_release(&s);
	fz_end();
	return 0;
}
