/* dev.c - `dev`: NICs on this machine, simulated devices, the open one. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "fwctl.h"
#include "discover.h"
#include "mstconfig.h"
#include "mstreg.h"
#include "paths.h"
#include "device.h"

/* Is a program on PATH (or a path) executable? */
static bool have_prog(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096], *dir, *save = NULL, full[PCB_PATH_LEN];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!pcb_path(full, sizeof(full), NULL, "%s/%s", dir, prog) &&
		    access(full, X_OK) == 0)
			return true;
	}
	return false;
}

static int dev_list_open(struct session *s);

/* `dev list [all|open]`: the network functions (PCI class 0x02xx) of
 * NVIDIA's vendor ID, then the simulated devices; `open` the session's
 * open devices instead (dev_list_open); `all` adds the BlueField SoC
 * functions and bridges, labelled so in FUNCTION, with no transport.
 */
static int cmd_dev_list(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "device", "DEVICE", 0 }, { "model", "MODEL", 0 },
		{ "function", "FUNCTION", 0 }, { "netdev", "NETDEV", 0 },
		{ "rdma", "RDMA", 0 }, { "fwctl", "FWCTL", 0 },
		{ "transports", "TRANSPORTS", 0 },
	};
	struct pcb_nic *nics = NULL;
	char dir[PCB_PATH_LEN], tr[64];
	struct dirent *de;
	struct tbl t;
	size_t i, n = 0;
	bool have_sim = false, all = false;
	bool mst = have_prog(s->opt.mstreg_prog ? s->opt.mstreg_prog :
			     "mstreg");
	DIR *d;
	int rc;

	if (argc == 1 && !strcmp(argv[0], "open"))
		return dev_list_open(s);
	if (argc == 1 && strcmp(argv[0], "all"))
		return pcb_error(&s->err, PCB_E_USAGE, "'dev list': unknown "
				 "word '%s' (dev list [all|open])", argv[0]);
	all = argc == 1;
	rc = pcb_discover_all(&nics, &n, all, &s->err);
	if (rc)
		return rc;
	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < n; i++) {
		const struct pcb_nic *c = &nics[i];
		bool ppcc = pcb_fn_has_ppcc(c->kind);
		/* mstflint refuses VFs; fwctl needs the kernel's node */
		bool fw = ppcc && c->fwctl[0];
		bool ms = mst && ppcc && !c->vf;

		snprintf(tr, sizeof(tr), "%s%s%s", fw ? "fwctl" : "",
			 fw && ms ? "," : "", ms ? "mstreg" : "");
		tbl_row(&t);
		tbl_str(&t, c->bdf);
		tbl_str(&t, c->model);
		tbl_str(&t, pcb_fn_kind_name(c->kind));
		tbl_str(&t, c->netdev[0] ? c->netdev : NULL);
		tbl_str(&t, c->rdma[0] ? c->rdma : NULL);
		tbl_str(&t, c->fwctl[0] ? c->fwctl : NULL);
		tbl_str(&t, tr[0] ? tr : NULL);
	}
	free(nics);
	if (!pcb_user_dir(dir, sizeof(dir), PCB_DIR_STATE, "sim", false,
			  NULL) && (d = opendir(dir))) {
		char **names = NULL;
		size_t nn = 0, k;

		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);
			char **nv;

			if (l < 5 || strcmp(de->d_name + l - 4, ".dev"))
				continue;
			nv = realloc(names, (nn + 1) * sizeof(*nv));
			if (!nv)
				break;
			names = nv;
			names[nn] = strndup(de->d_name, l - 4);
			if (names[nn])
				nn++;
		}
		closedir(d);
		/* stable order */
		for (i = 0; i + 1 < nn; i++)
			for (k = i + 1; k < nn; k++)
				if (strcmp(names[i], names[k]) > 0) {
					char *x = names[i];

					names[i] = names[k];
					names[k] = x;
				}
		for (i = 0; i < nn; i++) {
			tbl_row(&t);
			if (!strcmp(names[i], "default")) {
				tbl_str(&t, "sim");
				have_sim = true;
			} else {
				tbl_strf(&t, "sim:%s", names[i]);
			}
			tbl_str(&t, "simulated ConnectX-7");
			tbl_str(&t, "PF");
			tbl_null(&t);
			tbl_null(&t);
			tbl_null(&t);
			tbl_str(&t, "sim");
			free(names[i]);
		}
		free(names);
	}
	if (!have_sim) {	/* the default device is always there to use */
		tbl_row(&t);
		tbl_str(&t, "sim");
		tbl_str(&t, "simulated ConnectX-7 (created on first use)");
		tbl_str(&t, "PF");
		tbl_null(&t);
		tbl_null(&t);
		tbl_null(&t);
		tbl_str(&t, "sim");
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* The text label of a device fact (dev_info's JSON key). */
static const char *info_label(const char *key, const char **prefix)
{
	*prefix = "";
	if (!strcmp(key, "state_file"))
		return "state";
	if (!strcmp(key, "fwctl_node")) {
		*prefix = "/dev/fwctl/";
		return "fwctl";
	}
	return key;
}

static int cmd_dev_show(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	const char *kv[8][2], *pre;
	struct dev_ctrs *c = NULL;
	struct pcb_err keep;
	uint32_t caps = 0;
	bool hw, fw, have_caps;
	size_t n, i;
	int rc;

	(void)argc;
	(void)argv;
	rc = sess_device(s);
	if (rc)
		return rc;
	hw = (dev_traits(s->cur) & DEV_T_CONFIRM) != 0;
	n = dev_info(s->cur, kv, 8);
	/* fwctl: the scope writes go at, and whether the context can reach
	 * tools registers (fwctl.h) */
	fw = fwctl_node(s->cur->dev) != NULL;
	have_caps = fwctl_uctx_caps(s->cur->dev, &caps);
	keep = s->err;
	/* a NIC without RDMA device or netdev */
	if (dev_ctrs(s->cur, &c))
		c = NULL;
	s->err = keep;
	out_obj_begin(o, NULL);
	out_field_str(o, "device", "device     %s\n", s->cur->name);
	out_field_str(o, "backend", "backend    %s", s->cur->dev->ops->name);
	out_str(o, "kind", dev_kind(s->cur));
	out_field_bool(o, "real", "%s", hw, " (real hardware: writes ask "
		       "first)", " (simulated)");
	out_field_bool(o, "read_only", "%s\n", s->read_only, ", read-only",
		       "");
	for (i = 0; i < n; i++) {
		const char *l = info_label(kv[i][0], &pre);

		out_text(o, "%-10s %s", l, pre);
		out_field_str(o, kv[i][0], "%s\n", kv[i][1]);
	}
	if (c)
		out_field_str(o, "counters", "counters   %s\n", c->where);
	if (fw)
		out_field_str(o, "fwctl_write_scope", "writes     fwctl scope "
			      "%s and up\n",
			      fwctl_scope_name(fwctl_write_scope(s->cur->dev)));
	if (have_caps) {
		out_field_uint(o, "fwctl_uctx_caps", "uctx_caps  0x%x", caps);
		out_field_bool(o, "fwctl_tools_resources", "%s\n",
			       caps & MLX5_UCTX_CAP_TOOLS_RESOURCES,
			       " (TOOLS_RESOURCES)", ": no TOOLS_RESOURCES, "
			       "the firmware may refuse PPCC to this context");
	}
	out_field_str(o, "journal", "journal    %s\n",
		      journal_path(s->cur->journal));
	out_field_u64(o, "register_gets", "accesses   %llu get, ",
		      s->cur->dev->n_get);
	out_field_u64(o, "register_sets", "%llu set\n", s->cur->dev->n_set);
	out_obj_end(o);
	return 0;
}

/* `dev open DEVICE`: DEVICE joins the session's open devices (or, open
 * already, is found there) and becomes the current one; the others stay
 * open (`dev list open`).
 */
static int cmd_dev_open(struct session *s, int argc, char **argv)
{
	struct device *old = s->cur, *was = sess_find_device(s, argv[0]);
	char *old_name = strdup(s->cur->name);
	int rc;

	(void)argc;
	if (!old_name)
		return pcb_error(&s->err, PCB_E_NOMEM, "out of memory");
	rc = sess_set_device(s, argv[0]);
	if (!rc)
		rc = sess_device(s);
	if (!rc) {	/* prove it answers: one algo info array */
		uint32_t info[PPCC_SLOTS];

		rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	}
	if (rc) {
		/* keep working on the old device; report the new one's error */
		struct pcb_err keep = s->err;

		if (!was && s->cur != old)	/* added: taken off again */
			sess_close_device(s, s->cur);
		else if (!was)	/* an unopened one renamed: back */
			sess_set_device(s, old_name);
		s->cur = old;
		s->err = keep;
	} else {
		out_text(&s->out, "%s: %s backend\n", s->cur->name,
			 s->cur->dev->ops->name);
	}
	free(old_name);
	return rc;
}

/* `dev list open`: the session's open devices, the current one marked,
 * each with its clock (devices of one clock record together).
 */
static int dev_list_open(struct session *s)
{
	static const struct tbl_col cols[] = {
		{ "device", "DEVICE", 0 }, { "current", "CURRENT", 0 },
		{ "kind", "KIND", 0 }, { "clock", "CLOCK", 0 },
		{ "register", "REGISTER", 0 },
	};
	struct device *d;
	struct tbl t;

	tbl_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
	for (d = s->devs; d; d = d->next) {
		if (!dev_is_open(d))
			continue;
		tbl_row(&t);
		tbl_str(&t, d->devid);
		tbl_str(&t, d == s->cur ? "*" : NULL);
		tbl_str(&t, dev_kind(d));
		tbl_str(&t, dev_clock(d));
		tbl_str(&t, *d->regid ? d->regid : d->devid);
	}
	tbl_print(&t, &s->out, NULL);
	tbl_release(&t);
	return 0;
}

/* The PPCC slots as they run now: one row per slot that has an algo. */
static int nvc_running(struct session *s, struct tbl *t)
{
	static const struct tbl_col cols[] = {
		{ "slot", "SLOT", TBL_RIGHT }, { "algo_id", "ID", 0 },
		{ "version", "VERSION", 0 }, { "name", "NAME", 0 },
		{ "enabled", "ENABLED", 0 },
	};
	uint32_t info[PPCC_SLOTS], num;
	struct ppcc_status st;
	char name[224], descr[224];
	unsigned i;
	int rc;

	tbl_init(t, cols, sizeof(cols) / sizeof(cols[0]));
	rc = ppcc_algo_info_array(&s->cur->ppcc, info, &s->err);
	for (i = 0; i < PPCC_SLOTS && !rc; i++) {
		if (!info[i])
			continue;
		rc = ppcc_algo_info(&s->cur->ppcc, i, &num, name, sizeof(name),
				    descr, sizeof(descr), &s->err);
		if (!rc)
			rc = ppcc_status(&s->cur->ppcc, i, &st, &s->err);
		if (rc)
			break;
		tbl_row(t);
		tbl_u64(t, i);
		tbl_hex(t, num >> 16, 4);
		tbl_strf(t, "%u.%u", (num >> 8) & 0xff, num & 0xff);
		tbl_str(t, name);
		tbl_bool(t, st.enabled);
	}
	return rc;
}

/* `dev nvconfig [all]`: the NIC's non-volatile RoCE congestion settings
 * (mstconfig's Default, Current = loaded at this boot, Next Boot) beside
 * the PPCC slots as they run now.  Read-only.
 */
static int cmd_dev_nvconfig(struct session *s, int argc, char **argv)
{
	static const struct tbl_col cols[] = {
		{ "setting", "SETTING", 0 }, { "default", "DEFAULT", 0 },
		{ "current", "CURRENT", 0 }, { "next_boot", "NEXT_BOOT", 0 },
		{ "pending", "PENDING", 0 },
	};
	const char *prog = dev_nvc_prog(&s->opt), *who;
	struct out *o = &s->out;
	struct nvc_query q = { 0 };
	struct tbl run, nv;
	size_t i, shown = 0, pending = 0;
	bool all = false;
	int rc, c;

	if (argc == 1 && strcmp(argv[0], "all"))
		return pcb_error(&s->err, PCB_E_USAGE, "'dev nvconfig': "
				 "unknown word '%s' (dev nvconfig [all])",
				 argv[0]);
	all = argc == 1;
	rc = sess_device(s);
	if (rc)
		return rc;
	if (!strcmp(dev_kind(s->cur), "sim") || !pcb_is_pci_name(s->cur->devid))
		return pcb_error(&s->err, PCB_E_STATE, "'dev nvconfig': '%s' "
				 "is simulated: no non-volatile settings (a "
				 "NIC's come from mstconfig)", s->cur->name);
	rc = nvc_run(prog, s->cur->devid, s->opt.timeout_ms, s->opt.stop, &q,
		     &s->err);
	if (rc)
		return rc;
	rc = nvc_running(s, &run);
	if (rc)
		goto out_run;
	tbl_init(&nv, cols, sizeof(cols) / sizeof(cols[0]));
	for (i = 0; i < q.n; i++) {
		const struct nvc_param *p = &q.p[i];

		if (!all && !nvc_is_cc(p->name))
			continue;
		shown++;
		pending += nvc_pending(&q, p);
		tbl_row(&nv);
		tbl_str(&nv, p->name);
		for (c = 0; c < NVC_NCOLS; c++)
			tbl_str(&nv, p->val[c]);
		if (p->val[NVC_CURRENT])
			tbl_bool(&nv, nvc_pending(&q, p));
		else
			tbl_null(&nv);
	}
	who = strrchr(prog, '/');
	who = who ? who + 1 : prog;
	out_obj_begin(o, NULL);
	out_field_str(o, "device", "%s  ", s->cur->devid);
	out_str(o, "tool", who);
	out_field_str(o, "device_type", "%s ", q.device_type);
	out_field_str(o, "part", "%s\n", q.part);
	out_text(o, "\nrunning now (PPCC):\n");
	tbl_print(&run, o, "running");
	out_text(o, "\nnon-volatile (%s: CURRENT was loaded at this boot, "
		 "NEXT_BOOT loads at the next):\n", who);
	tbl_print(&nv, o, "nvconfig");
	if (!q.has[NVC_CURRENT]) {
		out_null(o, "pending");
		out_text(o, "the firmware does not report its current values: "
			 "what the next boot changes is unknown\n");
	} else if (pending) {
		out_field_u64(o, "pending", "%llu of ", pending);
		out_text(o, "%zu settings change at the next boot (reboot or "
			 "mstfwreset)\n", shown);
	} else {
		out_u64(o, "pending", 0);
		out_text(o, "no setting changes at the next boot\n");
	}
	out_obj_end(o);
	tbl_release(&nv);
out_run:
	tbl_release(&run);
	nvc_release(&q);
	return rc;
}

static bool dev_open_complete(struct session *s, char **argv, int argc,
			      struct cands *c)
{
	(void)argv;
	if (argc == 0)
		cand_devices(s, c);
	return true;
}

const struct cmd_row cmd_dev_verbs[] = {
	{
		.name = "list",
		.fn = cmd_dev_list,
		.max_args = 1,
		.args = "[all|open]",
		.help = "NVIDIA NICs (PCI address, model, netdev, RDMA, fwctl, "
			"transports) and simulated devices; all: BlueField SoC "
			"functions and bridges too; open: the devices this "
			"session opened, the current one marked",
		.example = "dev list",
		.flags = CMD_DEFAULT,
	},
	{
		.name = "show",
		.fn = cmd_dev_show,
		.args = "",
		.help = "the open device: backend, state file or node, journal",
		.example = "dev show",
		.flags = CMD_DEVICE,
	},
	{
		.name = "nvconfig",
		.fn = cmd_dev_nvconfig,
		.max_args = 1,
		.args = "[all]",
		.help = "the NIC's non-volatile RoCE congestion settings (mstconfig: "
			"default, current, next boot) beside the PPCC slots running "
			"now; all: every setting",
		.example = "dev nvconfig",
		.flags = CMD_DEVICE,
	},
	{
		.name = "open",
		.fn = cmd_dev_open,
		.min_args = 1,
		.max_args = 1,
		.args = "DEVICE",
		.help = "open a device beside those open and make it the "
			"current one (sim, sim:NAME, sim:NAME/hN: host N's "
			"NIC, 0000:08:00.0, pci/0000:08:00.0, mlx5_0, "
			"mlx5_0/1, a netdev)",
		.example = "dev open sim:lab",
		.flags = CMD_DEVICE,
		.complete = dev_open_complete,
	},
	{ 0 }
};
