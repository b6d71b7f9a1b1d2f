/* fwctl request bytes and reply decoding; node lookup, name resolution
 * and libpci discovery on fixture trees (tests/fixtures).
 */
#include "testutil.h"
#include "discover.h"
#include "fwctl.h"

static void test_struct_layout(void **state)
{
	(void)state;
	/* include/uapi/fwctl/fwctl.h */
	assert_int_equal(sizeof(struct fwctl_rpc), 32);
	assert_int_equal(sizeof(struct fwctl_info), 24);
	assert_int_equal(FWCTL_INFO, 0x9a00);
	assert_int_equal(FWCTL_RPC, 0x9a01);
}

static void test_request_bytes(void **state)
{
	static const uint8_t get_hdr[16] = {
		0x08, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x50, 0x6e, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t set_hdr[16] = {
		0x08, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x50, 0x6e, 0x00, 0x00, 0x00, 0x00 };
	uint8_t ppcc[252], in[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ppcc); i++)
		ppcc[i] = (uint8_t)i;
	assert_int_equal(fwctl_access_reg_in(in, sizeof(in), REG_GET, 0x506e,
					     ppcc, 252), 268);
	assert_memory_equal(in, get_hdr, 16);
	assert_memory_equal(in + 16, ppcc, 252);
	assert_int_equal(fwctl_scope(REG_GET), FWCTL_RPC_DEBUG_READ_ONLY);
	assert_int_equal(fwctl_access_reg_in(in, sizeof(in), REG_SET, 0x506e,
					     ppcc, 252), 268);
	assert_memory_equal(in, set_hdr, 16);
	assert_int_equal(fwctl_scope(REG_SET), FWCTL_RPC_DEBUG_WRITE_FULL);
	assert_int_equal(fwctl_access_reg_in(in, 100, REG_GET, 0x506e, ppcc,
					     252), 0);
}

static void test_replies(void **state)
{
	uint8_t out[268] = { 0 }, data[252];
	struct pcb_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 16; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 3);
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 0);
	assert_memory_equal(data, out + 16, 252);
	/* bad status, with its syndrome */
	out[0] = 0x03;
	out[4] = 0x12;
	out[5] = 0x34;
	out[6] = 0x56;
	out[7] = 0x78;
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_string_equal(err.msg, "d: ACCESS_REG failed: status 0x3 (bad "
			    "parameter), syndrome 0x12345678");
	pcb_err_reset(&err);
	out[0] = 0x51;
	assert_int_equal(fwctl_access_reg_out(out, 268, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "bad output length"));
	/* short replies */
	out[0] = 0;
	pcb_err_reset(&err);
	assert_int_equal(fwctl_access_reg_out(out, 8, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	pcb_err_reset(&err);
	assert_int_equal(fwctl_access_reg_out(out, 100, data, 252, "d", &err),
			 -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "expected 268"));
}

static void test_sysfs(void **state)
{
	struct pcb_err err = { 0 };
	char node[32], bdf[32];

	(void)state;
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
	assert_int_equal(fwctl_find_node("0000:08:00.0", node, sizeof(node)),
			 0);
	assert_string_equal(node, "fwctl0");
	assert_int_not_equal(fwctl_find_node("0000:08:00.1", node,
					     sizeof(node)), 0);
	assert_int_equal(pcb_resolve_pci("08:00.1", bdf, sizeof(bdf), &err),
			 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_1", bdf, sizeof(bdf), &err),
			 0);
	assert_string_equal(bdf, "0000:08:00.1");
	assert_int_equal(pcb_resolve_pci("mlx5_9", bdf, sizeof(bdf), &err),
			 -PCB_E_NOENT);
	assert_int_equal(pcb_resolve_pci("eth0", bdf, sizeof(bdf), &err),
			 -PCB_E_NOENT);
	assert_int_not_equal(pcb_resolve_pci("0000:08:40.0", bdf, sizeof(bdf),
					     &err), 0);
	assert_true(pcb_is_pci_name("08:00.0"));
	assert_false(pcb_is_pci_name("sim:lab"));
}

static void test_discover(void **state)
{
	struct pcb_err err = { 0 };
	struct pcb_nic *v = NULL;
	size_t n = 0;
	bool vf;

	(void)state;
	assert_string_equal(pcb_nic_model(0x1021, &vf), "ConnectX-7");
	assert_false(vf);
	assert_string_equal(pcb_nic_model(0xa2dc, &vf), "BlueField-3");
	pcb_nic_model(0x101e, &vf);
	assert_true(vf);
	assert_null(pcb_nic_model(0x1234, &vf));
	setenv("PCCBENCH_SYSFS", "tests/fixtures/sysfs", 1);
	setenv("PCCBENCH_PCI_DUMP", "tests/fixtures/pci/lspci-x.txt", 1);
	assert_int_equal(pcb_discover(&v, &n, &err), 0);
	assert_int_equal(n, 4);		/* the Intel device is not ours */
	assert_string_equal(v[0].bdf, "0000:03:00.0");
	assert_string_equal(v[0].model, "BlueField-3");
	assert_string_equal(v[0].netdev, "p0");
	assert_string_equal(v[1].bdf, "0000:08:00.0");
	assert_string_equal(v[1].model, "ConnectX-7");
	assert_string_equal(v[1].netdev, "ens1f0np0");
	assert_string_equal(v[1].rdma, "mlx5_0");
	assert_string_equal(v[1].fwctl, "fwctl0");
	assert_string_equal(v[2].fwctl, "");
	assert_true(v[3].vf);
	free(v);
	/* a broken dump is an error, not an exit */
	setenv("PCCBENCH_PCI_DUMP", "/nonexistent/dump", 1);
	assert_int_equal(pcb_discover(&v, &n, &err), -PCB_E_DEVICE);
	assert_non_null(strstr(err.msg, "PCI scan failed"));
	unsetenv("PCCBENCH_PCI_DUMP");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_struct_layout),
		cmocka_unit_test(test_request_bytes),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_discover),
	};

	return cmocka_run_group_tests_name("fwctl", tests, NULL, NULL);
}
