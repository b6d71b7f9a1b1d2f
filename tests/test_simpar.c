/* Two threads, one run (issue 34 item 7, par.c): a fabric run with
 * sim_run_par is the one-thread run, to every figure the report, the
 * counters and each port, host and flow show; what it refuses changes
 * nothing.
 */
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include "testsim.h"

/* us of s1 on one thread and of s2 on two (two) or one (the halves
 * joined first), in the statistics window (fresh: a new one); then the
 * two fabrics alike. */
static void turn(struct sim *s1, struct sim *s2, int64_t us, bool two,
		 bool fresh)
{
	struct pcb_err err = { 0 };
	int64_t ps = us * PS_PER_US;

	assert_int_equal(fresh ? sim_run(s1, ps, NULL) :
			 sim_run_more(s1, ps, NULL), 0);
	if (two) {
		if (sim_run_par(s2, ps, fresh, NULL, &err))
			fail_msg("sim_run_par: %s", err.msg);
	} else {
		sim_par_finish(s2);
		assert_int_equal(fresh ? sim_run(s2, ps, NULL) :
				 sim_run_more(s2, ps, NULL), 0);
	}
	assert_same_run(s1, s2);
	/* the NICs' lists: each replica's own hosts, or all once joined */
	assert_nic_slots(s1);
	assert_nic_slots(s2);
	if (two)
		assert_nic_slots(s2->peer);
}

/* The 64-host leaf-spine WebSearch mix (and one with a periodic incast
 * under PFC), a lossy fat-tree permutation, a mix with long-lived flows,
 * 1 ms in two steps: one thread and two alike; then one thread runs on
 * from the two's fabric as from its own, and two threads again from a
 * fabric one thread ran. */
static void test_same_run(void **state)
{
	static const char *const mix[] = { "leaves", "8", "spines", "8",
		"hosts", "8", "load", "50", NULL };
	static const char *const inc[] = { "leaves", "8", "spines", "4",
		"hosts", "8", "load", "30", "incast_period", "200us",
		"incast_senders", "16", "incast_size", "64KB", NULL };
	static const char *const perm[] = { "topo", "fattree", "k", "4",
		"loss", "0.001", NULL };
	static const char *const lng[] = { "leaves", "4", "spines", "4",
		"hosts", "4", "load", "30", "longflows", "4", NULL };
	static const struct {
		const char *kind, *algo;
		const char *const *kv;
	} cases[] = {
		{ "mix", "ztr_rtt", mix },
		{ "mix", "dcqcn", mix },
		{ "mix", "ztr_rtt", inc },
		/* flows made as the fabric is built: each starts once */
		{ "permutation", "dcqcn", perm },
		{ "mix", "ztr_rtt", lng },
	};
	/* one run of two steps on two threads; the halves join and one
	 * thread runs on, as if it had run all along (packets queued and in
	 * flight, pending events, PFC and buffer state, the hosts' QPs with
	 * work, timers), in the same window and a new one; two threads again
	 * from where it stands (the second replica takes the fabric's state
	 * and each its half); one thread once more */
	static const struct {
		int64_t us;
		bool two, fresh;
	} turns[] = {
		{ 600, true, true }, { 400, true, false },
		{ 500, false, false }, { 300, false, true },
		{ 400, true, true }, { 200, false, false },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_cfg c = cfg_of(cases[i].kind, cases[i].kv);
		struct sim_algo a;
		struct sim *s1, *s2;

		algo_for(&a, cases[i].algo);
		a.counters_on = true;
		s1 = mk(&c, &a);
		s2 = mk(&c, &a);
		for (j = 0; j < sizeof(turns) / sizeof(turns[0]); j++)
			turn(s1, s2, turns[j].us, turns[j].two, turns[j].fresh);
		sim_free(s1);
		sim_free(s2);
	}
}

/* The watchdog on two threads from a fabric that has run: each replica
 * keeps a copy of the other half as the split found it, here with a
 * NIC that PFC held while it had data to send.  The pause lifts, the
 * incast drains and the fabric idles (1 % load) for longer than
 * SIM_STALL_PS: no stall, as on one thread (the copy made the second
 * replica's watchdog stop the run). */
static void test_watchdog_split(void **state)
{
	static const char *const kv[] = { "leaves", "2", "spines", "2",
		"hosts", "2", "load", "1", "incast_period", "5ms",
		"incast_senders", "3", "incast_size", "2MB", "buffer", "1MB",
		NULL };
	struct sim_cfg c = cfg_of("mix", kv);
	struct sim_algo a;
	struct sim *s1, *s2;
	uint32_t h, held = 0;

	(void)state;
	algo_for(&a, "ztr_rtt");
	s1 = mk(&c, &a);
	s2 = mk(&c, &a);
	/* into the first incast, its senders' NICs paused */
	turn(s1, s2, 5010, false, true);
	for (h = 0; h < s2->nhosts; h++)
		held += port_held(s2, s2->hosts[h].port) &&
			sim_port_waits(s2, s2->hosts[h].port);
	assert_true(held > 0);
	turn(s1, s2, 4000, true, true);
	sim_free(s1);
	sim_free(s2);
}

/* The process's address space now, bytes (/proc/self/statm). */
static uint64_t vm_bytes(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu", &pages), 1);
	fclose(f);
	return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* A thread that cannot start (its stack beyond RLIMIT_AS; the replica,
 * some 200 KB, fits): the run fails, changing nothing, as what two
 * threads refuse (the run's statistics window was reset first, its
 * report lost); then the fabric runs on as one that never tried. */
static void test_no_thread(void **state)
{
	static const char *const kv[] = { "leaves", "2", "spines", "2",
		"hosts", "1", "load", "50", NULL };
	struct sim_cfg c = cfg_of("mix", kv);
	struct pcb_err err = { 0 };
	pthread_attr_t at, at0;
	struct rlimit lim, lim0;
	struct sim_algo a;
	struct sim *s1, *s2;
	uint64_t vm;
	int rc;

	(void)state;
	algo_for(&a, "ztr_rtt");
	s1 = mk(&c, &a);
	s2 = mk(&c, &a);
	turn(s1, s2, 100, false, true);
	vm = vm_bytes();
	if (vm > 1ull << 40) {	/* a sanitizer's shadow: no limit fits */
		sim_free(s1);
		sim_free(s2);
		skip();
	}
	/* 32 MB stacks (larger than any glibc keeps from threads that
	 * ended, so a new one is mapped), 4 MB left */
	assert_int_equal(pthread_getattr_default_np(&at0), 0);
	assert_int_equal(pthread_attr_init(&at), 0);
	assert_int_equal(pthread_attr_setstacksize(&at, 32 << 20), 0);
	assert_int_equal(pthread_setattr_default_np(&at), 0);
	assert_int_equal(getrlimit(RLIMIT_AS, &lim0), 0);
	lim = lim0;
	lim.rlim_cur = vm + (4 << 20);
	assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
	rc = sim_run_par(s2, 100 * PS_PER_US, true, NULL, &err);
	assert_int_equal(setrlimit(RLIMIT_AS, &lim0), 0);
	assert_int_equal(pthread_setattr_default_np(&at0), 0);
	pthread_attr_destroy(&at);
	pthread_attr_destroy(&at0);
	print_message("%s\n", err.msg);
	assert_int_equal(rc, -PCB_E_NOMEM);
	assert_non_null(strstr(err.msg, "cannot start a thread"));
	sim_par_finish(s2);	/* as simdev's run, after any step */
	assert_same_run(s1, s2);
	turn(s1, s2, 100, false, false);
	turn(s1, s2, 100, true, true);
	sim_free(s1);
	sim_free(s2);
}

/* The halves cannot join (no address space left: the first's packet
 * pool must grow by mremap for the second's 50 k packets of a 63:1
 * incast at MTU 1024): the fabric keeps its report and refuses to run
 * on, in one line, until a reset (the join aborted the process in
 * pkt_alloc). */
static void test_join_nomem(void **state)
{
	static const char *const kv[] = { "leaves", "2", "spines", "2",
		"hosts", "32", "mtu", "1024", "buffer", "256MB", "load", "90",
		"incast_period", "20us", "incast_senders", "63",
		"incast_size", "1MB", NULL };
	struct sim_cfg c = cfg_of("mix", kv);
	struct pcb_err err = { 0 };
	struct sim_summary m1, m2;
	struct rlimit lim, lim0;
	struct sim_algo a;
	struct sim *s1, *s2;
	uint64_t vm;

	(void)state;
	algo_for(&a, NULL);
	s1 = mk(&c, &a);
	s2 = mk(&c, &a);
	assert_int_equal(sim_run(s1, 60 * PS_PER_US, NULL), 0);
	assert_int_equal(sim_run_par(s2, 60 * PS_PER_US, true, NULL, &err), 0);
	assert_true(s2->npk - s2->npfree + s2->peer->npk -
		    s2->peer->npfree > s2->pkcap);
	vm = vm_bytes();
	if (vm > 1ull << 40) {	/* a sanitizer's shadow: no limit fits */
		sim_free(s1);
		sim_free(s2);
		skip();
	}
	assert_int_equal(getrlimit(RLIMIT_AS, &lim0), 0);
	lim = lim0;
	lim.rlim_cur = vm;
	assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
	sim_par_finish(s2);
	assert_int_equal(setrlimit(RLIMIT_AS, &lim0), 0);
	assert_int_not_equal(sim_par_check(s2, &err), 0);
	print_message("%s\n", err.msg);
	assert_non_null(strstr(err.msg, "could not join"));
	assert_null(strchr(err.msg, '\n'));
	sim_summary(s1, &m1);
	sim_summary(s2, &m2);
	assert_memory_equal(&m1, &m2, sizeof(m1));
	sim_free(s1);
	sim_free(s2);
}

/* Refused, nothing changed: a collective (fresh, or run already), an
 * incast. */
static void test_refused(void **state)
{
	static const char *const ar[] = { "leaves", "2", "spines", "2",
		"hosts", "2", "ranks", "4", "size", "64KB", NULL };
	struct pcb_err err = { 0 };
	uint64_t ev;
	struct sim_algo a;
	struct sim_cfg c;
	struct sim *s;

	(void)state;
	algo_for(&a, "ztr_rtt");
	c = cfg_of("allreduce", ar);
	s = mk(&c, &a);
	assert_int_not_equal(sim_run_par(s, PS_PER_US, true, NULL, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sim_now(s), 0);
	assert_int_equal(sim_events(s), 0);
	sim_free(s);
	c = cfg_of("incast", NULL);
	s = mk(&c, &a);
	assert_int_not_equal(sim_par_check(s, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	sim_free(s);
	c = cfg_of("allreduce", ar);
	s = mk(&c, &a);
	assert_int_equal(sim_run(s, 10 * PS_PER_US, NULL), 0);
	ev = sim_events(s);
	assert_int_not_equal(sim_run_par(s, PS_PER_US, false, NULL, &err), 0);
	print_message("%s\n", err.msg);
	memset(&err, 0, sizeof(err));
	assert_int_equal(sim_now(s), 10 * PS_PER_US);
	assert_int_equal(sim_events(s), ev);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_run),
		cmocka_unit_test(test_watchdog_split),
		cmocka_unit_test(test_no_thread),
		cmocka_unit_test(test_join_nomem),
		cmocka_unit_test(test_refused),
	};
	return tu_run_sim_group("simpar", tests,
				sizeof(tests) / sizeof(tests[0]));
}
