/* doca.h - NVIDIA DOCA's telemetry libraries, loaded at run time: the
 * diag and adp_retx contexts of a real NIC when DOCA is installed
 * (../shared/spec/host-counters-and-doca.md 5).
 *
 * Nothing links against DOCA: tdoca_load() dlopens libdoca_common.so.N
 * and libdoca_telemetry.so.N (the per-domain names only as a fallback)
 * from $PCCBENCH_DOCA_LIBDIR if set, else the loader's path, then
 * DOCA's install prefix, and resolves every symbol pccbench uses.  A
 * symbol that is missing disables only the feature that needs it
 * (TDOCA_F_*); tdoca_missing() names them for `dev show`.  The function
 * types are our own declarations of DOCA's documented signatures:
 * handles are opaque pointers, enums are ints, flags uint8_t.
 *
 * Errors: DOCA's doca_error_t values are the TEL_* values (tel.h) for
 * the codes pccbench names; tdoca_tel() maps any other code onto
 * TEL_DRIVER, keeping DOCA's own name for the message.
 *
 * Ownership: the library handles stay loaded for the process's life
 * (tdoca_api is one static object); a struct tdoca_dev is the caller's
 * (tdoca_dev_open / tdoca_dev_close).
 */
#ifndef PCCB_TEL_DOCA_H
#define PCCB_TEL_DOCA_H

#include <stdbool.h>
#include <stddef.h>

#include "paths.h"
#include <stdint.h>

#include "err.h"

/* What a missing symbol disables. */
enum {
	TDOCA_F_DEV = 0x1,	/* device lookup: everything */
	TDOCA_F_DIAG = 0x2,
	TDOCA_F_RECONF = 0x4,	/* diag reconfig_sample_period (3.1+) */
	TDOCA_F_RETX = 0x8,	/* adp_retx (3.2+) */
	TDOCA_F_PCC = 0x10,
	TDOCA_F_VERSION = 0x20,	/* doca_version_runtime (informative) */
	TDOCA_F_PCC_CLEAR = 0x40, /* pcc get_and_clear (2.10: unconfirmed) */
};

typedef int (*tdoca_ctx_fn)(void *ctx);
typedef int (*tdoca_u8_fn)(void *ctx, uint8_t v);
typedef int (*tdoca_u16_fn)(void *ctx, uint16_t v);
typedef int (*tdoca_u32_fn)(void *ctx, uint32_t v);
typedef int (*tdoca_u64_fn)(void *ctx, uint64_t v);
typedef int (*tdoca_enum_fn)(void *ctx, int v);
typedef int (*tdoca_getu8_fn)(void *ctx, uint8_t *v);
typedef int (*tdoca_getu16_fn)(void *ctx, uint16_t *v);
typedef int (*tdoca_getu32_fn)(void *ctx, uint32_t *v);
typedef int (*tdoca_getu64_fn)(void *ctx, uint64_t *v);
typedef int (*tdoca_getenum_fn)(void *ctx, int *v);
typedef int (*tdoca_cap_fn)(const void *devinfo);
typedef int (*tdoca_capu8_fn)(const void *devinfo, uint8_t *v);
typedef int (*tdoca_capu32_fn)(const void *devinfo, uint32_t *v);
typedef int (*tdoca_capenum_fn)(const void *devinfo, int which, uint8_t *v);

/* X(feature, member, DOCA symbol, type): every symbol pccbench resolves.
 * Function types named tdoca_*_fn above are shared shapes; the others
 * are spelled out in struct tdoca_api.
 */
#define TDOCA_SYMS_SIMPLE(X)                                                  \
	X(DIAG, diag_cap_is_supported, "doca_telemetry_diag_cap_is_supported",\
	  tdoca_cap_fn)                                                       \
	X(DIAG, diag_cap_max_ids,                                             \
	  "doca_telemetry_diag_cap_get_max_num_data_ids", tdoca_capu32_fn)    \
	X(DIAG, diag_cap_log_samples,                                         \
	  "doca_telemetry_diag_cap_get_log_max_num_samples", tdoca_capu8_fn)  \
	X(DIAG, diag_cap_clear,                                               \
	  "doca_telemetry_diag_cap_is_data_clear_supported", tdoca_capu8_fn)  \
	X(DIAG, diag_cap_sync,                                                \
	  "doca_telemetry_diag_cap_is_sync_start_supported", tdoca_capu8_fn)  \
	X(DIAG, diag_cap_mode,                                                \
	  "doca_telemetry_diag_cap_is_sample_mode_supported", tdoca_capenum_fn)\
	X(DIAG, diag_cap_ts,                                                  \
	  "doca_telemetry_diag_cap_is_data_timestamp_source_supported",       \
	  tdoca_capenum_fn)                                                   \
	X(DIAG, diag_destroy, "doca_telemetry_diag_destroy", tdoca_ctx_fn)    \
	X(DIAG, diag_set_format, "doca_telemetry_diag_set_output_format",     \
	  tdoca_enum_fn)                                                      \
	X(DIAG, diag_set_period, "doca_telemetry_diag_set_sample_period",     \
	  tdoca_u64_fn)                                                       \
	X(DIAG, diag_get_period, "doca_telemetry_diag_get_sample_period",     \
	  tdoca_getu64_fn)                                                    \
	X(DIAG, diag_set_log_samples,                                         \
	  "doca_telemetry_diag_set_log_max_num_samples", tdoca_u8_fn)         \
	X(DIAG, diag_set_max_ids, "doca_telemetry_diag_set_max_num_data_ids", \
	  tdoca_u32_fn)                                                       \
	X(DIAG, diag_set_sync, "doca_telemetry_diag_set_sync_mode",           \
	  tdoca_enum_fn)                                                      \
	X(DIAG, diag_set_mode, "doca_telemetry_diag_set_sample_mode",         \
	  tdoca_enum_fn)                                                      \
	X(DIAG, diag_set_clear, "doca_telemetry_diag_set_data_clear",         \
	  tdoca_u8_fn)                                                        \
	X(DIAG, diag_set_ts, "doca_telemetry_diag_set_data_timestamp_source", \
	  tdoca_enum_fn)                                                      \
	X(DIAG, diag_apply_config, "doca_telemetry_diag_apply_config",        \
	  tdoca_ctx_fn)                                                       \
	X(DIAG, diag_check_id, "doca_telemetry_diag_check_data_id",           \
	  tdoca_u64_fn)                                                       \
	X(DIAG, diag_start, "doca_telemetry_diag_start", tdoca_ctx_fn)        \
	X(DIAG, diag_stop, "doca_telemetry_diag_stop", tdoca_ctx_fn)          \
	X(DIAG, diag_restart, "doca_telemetry_diag_restart", tdoca_ctx_fn)    \
	X(DIAG, diag_sample_size, "doca_telemetry_diag_get_sample_size",      \
	  tdoca_getu32_fn)                                                    \
	X(RECONF, diag_reconfig_period,                                       \
	  "doca_telemetry_diag_reconfig_sample_period", tdoca_u64_fn)         \
	X(RETX, retx_cap_is_supported, "doca_telemetry_adp_retx_cap_is_supported",\
	  tdoca_cap_fn)                                                       \
	X(RETX, retx_cap_hist, "doca_telemetry_adp_retx_cap_histogram_is_supported",\
	  tdoca_cap_fn)                                                       \
	X(RETX, retx_cap_max_bins, "doca_telemetry_adp_retx_cap_get_hist_max_bins",\
	  tdoca_capu32_fn)                                                    \
	X(RETX, retx_cap_units, "doca_telemetry_adp_retx_cap_get_hist_time_units",\
	  tdoca_capu32_fn)                                                    \
	X(RETX, retx_destroy, "doca_telemetry_adp_retx_destroy", tdoca_ctx_fn)\
	X(RETX, retx_start, "doca_telemetry_adp_retx_start", tdoca_ctx_fn)    \
	X(RETX, retx_stop, "doca_telemetry_adp_retx_stop", tdoca_ctx_fn)      \
	X(RETX, retx_set_bins, "doca_telemetry_adp_retx_set_hist_num_bins",   \
	  tdoca_u32_fn)                                                       \
	X(RETX, retx_get_bins, "doca_telemetry_adp_retx_get_hist_num_bins",   \
	  tdoca_getu32_fn)                                                    \
	X(RETX, retx_set_bin0, "doca_telemetry_adp_retx_set_hist_bin0_width", \
	  tdoca_u16_fn)                                                       \
	X(RETX, retx_get_bin0, "doca_telemetry_adp_retx_get_hist_bin0_width", \
	  tdoca_getu16_fn)                                                    \
	X(RETX, retx_set_bin1, "doca_telemetry_adp_retx_set_hist_bin1_width", \
	  tdoca_u16_fn)                                                       \
	X(RETX, retx_get_bin1, "doca_telemetry_adp_retx_get_hist_bin1_width", \
	  tdoca_getu16_fn)                                                    \
	X(RETX, retx_set_mode, "doca_telemetry_adp_retx_set_hist_bin_width_mode",\
	  tdoca_enum_fn)                                                      \
	X(RETX, retx_get_mode, "doca_telemetry_adp_retx_get_hist_bin_width_mode",\
	  tdoca_getenum_fn)                                                   \
	X(RETX, retx_set_unit, "doca_telemetry_adp_retx_set_hist_time_unit",  \
	  tdoca_enum_fn)                                                      \
	X(RETX, retx_get_unit, "doca_telemetry_adp_retx_get_hist_time_unit",  \
	  tdoca_getenum_fn)                                                   \
	X(RETX, retx_set_vhca, "doca_telemetry_adp_retx_set_hist_vhca_id",    \
	  tdoca_u16_fn)                                                       \
	X(RETX, retx_unset_vhca, "doca_telemetry_adp_retx_unset_hist_vhca_id",\
	  tdoca_ctx_fn)                                                       \
	X(RETX, retx_set_clear, "doca_telemetry_adp_retx_set_hist_clear_on_read",\
	  tdoca_u8_fn)                                                        \
	X(RETX, retx_get_clear, "doca_telemetry_adp_retx_get_hist_clear_on_read",\
	  tdoca_getu8_fn)                                                     \
	X(RETX, retx_set_count, "doca_telemetry_adp_retx_set_hist_count_enable",\
	  tdoca_u8_fn)                                                        \
	X(RETX, retx_get_count, "doca_telemetry_adp_retx_get_hist_count_enable",\
	  tdoca_getu8_fn)                                                     \
	X(RETX, retx_detect, "doca_telemetry_adp_retx_detect_hist_conf_change",\
	  tdoca_getu8_fn)                                                     \
	X(PCC, pcc_cap_is_supported, "doca_telemetry_pcc_cap_is_supported",   \
	  tdoca_cap_fn)                                                       \
	X(PCC, pcc_destroy, "doca_telemetry_pcc_destroy", tdoca_ctx_fn)       \
	X(PCC, pcc_start, "doca_telemetry_pcc_start", tdoca_ctx_fn)           \
	X(PCC, pcc_stop, "doca_telemetry_pcc_stop", tdoca_ctx_fn)             \
	X(PCC, pcc_cap_slots, "doca_telemetry_pcc_cap_get_max_algo_slots",    \
	  tdoca_capu32_fn)                                                    \
	X(PCC, pcc_cap_info_len, "doca_telemetry_pcc_cap_get_max_algo_info_len",\
	  tdoca_capu32_fn)                                                    \
	X(PCC, pcc_cap_counter_info_len,                                      \
	  "doca_telemetry_pcc_cap_get_max_counter_info_len", tdoca_capu32_fn) \
	X(PCC, pcc_cap_counters, "doca_telemetry_pcc_cap_get_max_num_counters",\
	  tdoca_capu32_fn)

struct tdoca_api {
	/* libdoca_common */
	int (*devinfo_create_list)(void ***list, uint32_t *n);
	int (*devinfo_destroy_list)(void **list);
	int (*devinfo_pci_addr)(const void *devinfo, char *out);
	int (*devinfo_ibdev_name)(const void *devinfo, char *out,
				  uint32_t size);
	int (*dev_open)(void *devinfo, void **dev);
	int (*dev_close)(void *dev);
	void *(*dev_as_devinfo)(const void *dev);
	const char *(*error_name)(int e);
	const char *(*version_runtime)(void);
	/* libdoca_telemetry: the shapes that are not shared */
	int (*diag_create)(void *dev, uint8_t force, void **diag);
	int (*diag_apply_ids)(void *diag, const uint64_t *ids, uint32_t n,
			      uint64_t *failed);
	int (*diag_query)(void *diag, void *buf, uint32_t max, uint32_t *got);
	int (*retx_create)(void *dev, void **retx);
	int (*retx_read)(void *retx, uint32_t *populated, uint64_t *bins);
	int (*retx_get_vhca)(void *retx, uint8_t *set, uint16_t *id);
	int (*pcc_create)(void *dev, void **pcc);
	int (*pcc_algo_id)(void *pcc, uint8_t slot, uint32_t *id);
	int (*pcc_major)(void *pcc, uint8_t slot, uint32_t *v);
	int (*pcc_minor)(void *pcc, uint8_t slot, uint32_t *v);
	int (*pcc_enable)(void *pcc, uint8_t slot, uint8_t *algo,
			  uint8_t *counters);
	int (*pcc_algo_info)(void *pcc, uint8_t slot, char *info);
	int (*pcc_num_counters)(void *pcc, uint8_t slot, uint32_t *n);
	int (*pcc_counter_info)(void *pcc, uint8_t slot, uint8_t id,
				char *info);
	int (*pcc_counters)(void *pcc, uint8_t slot, uint32_t *populated,
			    uint32_t *counters);
	int (*pcc_clear)(void *pcc, uint8_t slot, uint32_t *populated,
			 uint32_t *counters);
#define TDOCA_MEMBER(f, m, name, type) type m;
	TDOCA_SYMS_SIMPLE(TDOCA_MEMBER)
#undef TDOCA_MEMBER
	unsigned missing;	/* TDOCA_F_* some symbol of which is absent */
	/* per feature bit: "first_sym and N more (feature)" */
	char missing_syms[7][200];
	unsigned nmissing[7];
	char common_path[PCB_PATH_LEN], tel_path[PCB_PATH_LEN];
	char version[40];	/* "3.2.1025", or from the soname */
};

/* The libraries, loaded on first call; NULL when they cannot be (why in
 * `why`: not found where looked, or a symbol of the device lookup
 * missing).  The same answer for the rest of the process.
 */
const struct tdoca_api *tdoca_load(char *why, size_t len);
/* Features the loaded API lacks (TDOCA_F_*), and which symbols, for a
 * message ("doca_telemetry_adp_retx_create (adp_retx, DOCA 3.2+)").
 */
const char *tdoca_missing(const struct tdoca_api *a, unsigned feature);

/* A DOCA error code as a TEL_* error (tel.h). */
int tdoca_tel(int doca);
/* DOCA's name of a code ("DOCA_ERROR_BAD_STATE"), through the library
 * when loaded.
 */
const char *tdoca_errname(const struct tdoca_api *a, int doca);

/* One opened DOCA device. */
struct tdoca_dev {
	const struct tdoca_api *api;
	void *dev;		/* struct doca_dev * */
	void *devinfo;		/* doca_dev_as_devinfo(dev) */
	char pci[16];
	char ibdev[64];
};

/* Find the device whose PCI address is `pci` (DDDD:BB:DD.F) or, when it
 * is NULL or not listed, whose RDMA device is `ibdev`, and open it.
 * *doca gets DOCA's code on failure (0: no such device).
 */
int tdoca_dev_open(struct tdoca_dev *d, const struct tdoca_api *a,
		   const char *pci, const char *ibdev, int *doca,
		   struct pcb_err *err);
void tdoca_dev_close(struct tdoca_dev *d);

#endif
