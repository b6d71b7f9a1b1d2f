<?xml version="1.0" encoding="UTF-8"?>
<!-- pccbench's own layout of the PPCC access register (id 0x506e, 252 bytes),
     written from ../shared/spec/ppcc-mstreg-fwctl.md section 1.8 in the ADB
     format of mstflint's register_access_table.adb (PRM Rev 0.57, the one
     Debian's mstflint 4.21 ships), so the same loader and the same register
     lookup serve both files.  offset="B.b" size="s": bits [b+s-1:b] of the
     big-endian dword at byte B. -->
<NodesDefinition>
<config big_endian_arr="1" />
<info source_doc_name="pccbench PPCC layout" source_doc_version="Rev 0.57" />

<node name="access_reg_summary_ctrl_ext" descr="" attr_is_union="1" size="0x4.0" >
	<field name="id" descr="register id" access="INDEX" offset="0x0.0" size="0x0.16" enum="PPCC=0x506e" />
</node>

<node name="access_reg_summary_ext" descr="" attr_is_union="1" size="0xfc" >
	<field name="ppcc_reg" descr="" subnode="ppcc_reg_ext" selected_by="PPCC" offset="0x0.0" size="0xfc" capability="0" />
</node>

<node name="ppcc_reg_ext" descr="Programmable Port Congestion Control" size="0xfc.0" >
	<field name="cmd_type" descr="0x0 get algo info, 0x1 enable, 0x2 disable, 0x3 get enable status, 0x4 get num params, 0x5 get param info, 0x6 get param, 0x7 get and clear param, 0x8 set param, 0xA bulk get, 0xB bulk set, 0xC bulk get counters, 0xD bulk get and clear counters, 0xE get num counters, 0xF get counter info, 0x10 get algo info array" access="OP" offset="0x0.0" size="0x0.8" />
	<field name="lp_msb" descr="local port [9:8]" access="INDEX" offset="0x0.12" size="0x0.2" />
	<field name="pnat" descr="port number access type: 0 local port, 1 IB port" access="INDEX" offset="0x0.14" size="0x0.2" />
	<field name="local_port" descr="local port number" access="INDEX" offset="0x0.16" size="0x0.8" />
	<field name="algo_slot" descr="algorithm slot" access="INDEX" offset="0x4.0" size="0x0.4" />
	<field name="algo_param_index" descr="parameter or counter index" access="INDEX" offset="0x4.16" size="0x0.16" />
	<field name="value" descr="per cmd_type: algo number, enable status, count, param value, value to write" access="RW" offset="0x8.0" size="0x4.0" />
	<field name="param_value1" descr="cmd 0x5: default value" access="RO" offset="0xC.0" size="0x4.0" />
	<field name="param_value2" descr="cmd 0x5: minimum value" access="RO" offset="0x10.0" size="0x4.0" />
	<field name="param_value3" descr="cmd 0x5: maximum value; cmd 0xF: counter maximum" access="RO" offset="0x14.0" size="0x4.0" />
	<field name="sl_bitmask" descr="SLs the command applies to" access="RW" offset="0x18.0" size="0x0.16" />
	<field name="prm" descr="cmd 0x5/0xF: 0 read-only, 1 read-write, 2 read-only with get and clear" access="RO" offset="0x1C.0" size="0x0.2" />
	<field name="sl_bitmask_support" descr="device supports sl_bitmask" access="RO" offset="0x1C.2" size="0x0.1" />
	<field name="counter_en" descr="algorithm counters enabled" access="RW" offset="0x1C.3" size="0x0.1" />
	<field name="trace_en" descr="algorithm trace enabled" access="RW" offset="0x1C.4" size="0x0.1" />
	<field name="text_length" descr="valid bytes in text" access="RO" offset="0x1C.8" size="0x0.8" />
	<field name="text" descr="per cmd_type: name and description, parameter or counter array, algo info array" access="RO" high_bound="54" low_bound="0" offset="0x20.0" size="0xdc.0" />
</node>

</NodesDefinition>
