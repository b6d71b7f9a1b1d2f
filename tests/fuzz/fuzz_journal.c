/* fuzz_journal.c - the write journal's loader (src/core/journal.c
 * journal_open) and the commands that act on what it loaded.
 *
 * Input: the journal of sim:fz, $XDG_STATE_HOME/pccbench/journal/
 * sim_fz.log ("S pid", "W seq time pid param|algo ...", "D seq ok",
 * "E pid" lines), its records without their checksums: the harness gives
 * every complete line the " crc=XXXXXXXX" tail journal.c wants (a tail
 * that is there but wrong is replaced), so the fuzzed records reach the
 * parser; a last line without '\n' stays as it is (a torn append).  The
 * session opens the device (which loads the journal and reports an
 * unclean one), then `journal show` and, in dry run, `journal restore`
 * (the writes it would make, none made), in text and in JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "fsafe.h"
#include "fuzz.h"

#define TAIL 13		/* " crc=XXXXXXXX" */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_setup(argc, argv);
	return 0;
}

static bool has_tail(const uint8_t *l, size_t len)
{
	size_t i;

	if (len < TAIL || memcmp(l + len - TAIL, " crc=", 5))
		return false;
	for (i = len - 8; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", l[i]) || !l[i])
			return false;
	return true;
}

/* Every complete line with its checksum. */
static uint8_t *seal_lines(const uint8_t *data, size_t size, size_t *out)
{
	uint8_t *buf = malloc(size + (size + 1) * TAIL + 1);
	size_t o = 0, i = 0;

	if (!buf)
		abort();
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - (data + i)) : size - i;

		if (!nl) {	/* torn: as it is */
			memcpy(buf + o, data + i, len);
			o += len;
			break;
		}
		if (has_tail(data + i, len))
			len -= TAIL;
		memcpy(buf + o, data + i, len);
		o += len;
		o += (size_t)snprintf((char *)buf + o, TAIL + 2, " crc=%08x\n",
				      pcb_crc32(0, data + i, len));
		i += (size_t)(nl - (data + i)) + 1;
	}
	*out = o;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	uint8_t *text;
	size_t len;

	if (size > 65536)
		return -1;
	text = seal_lines(data, size, &len);
	fz_begin();
	if (fz_put("state", "journal/sim_fz.log", text, len, false))
		abort();
	fz_session(&s, "sim:fz");
	s.force = true;
	fz_run(&s, "journal show; journal restore");
	s.out.json = true;
	fz_run(&s, "journal show; journal restore");
	sess_release(&s);
	fz_end();
	free(text);
	return 0;
}
