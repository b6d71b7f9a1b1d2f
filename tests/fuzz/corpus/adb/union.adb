<NodesDefinition>
<config big_endian_arr="1" />
<node name="access_reg_summary_ctrl_ext" attr_is_union="1" size="0x4.0" >
	<field name="id" access="INDEX" offset="0x0.0" size="0x0.16" enum="TREG=0x9999,ALT=0x9998" />
</node>
<node name="access_reg_summary_ext" attr_is_union="1" size="0x40" >
	<field name="treg" subnode="treg_ext" selected_by="TREG" offset="0x0.0" size="0x40" />
	<field name="alt" subnode="alt_ext" selected_by="ALT" offset="0x0.0" size="0x10" />
</node>
<node name="treg_ext" size="0x40.0" >
	<field name="type" access="INDEX" offset="0x0.24" size="0x0.8" enum="A=0x1,B=0x2" />
	<field name="flags" access="RW" offset="0x0.0" size="0x0.4" low_bound="0" high_bound="3" />
	<field name="u" subnode="u_auto" union_selector="$(parent).type" offset="0x4.0" size="0x8.0" />
	<field name="arr" subnode="pair" offset="0xc.0" size="0x10.0" low_bound="0" high_bound="1" />
	<field name="var" access="RO" offset="0x20.0" size="0x4.0" low_bound="0" high_bound="VARIABLE" />
</node>
<node name="u_auto" attr_is_union="1" size="0x8.0" >
	<field name="a" subnode="a_ext" selected_by="A" offset="0x0.0" size="0x8.0" />
	<field name="b" subnode="b_ext" selected_by="B" offset="0x0.0" size="0x4.0" />
</node>
<node name="a_ext" size="0x8.0" >
	<field name="x" access="RW" offset="0x0.0" size="0x4.0" />
	<field name="y" access="RW" offset="0x4.16" size="0x0.16" />
</node>
<node name="b_ext" size="0x4.0" >
	<field name="z" access="WO" offset="0x0.0" size="0x0.1" />
</node>
<node name="pair" size="0x8.0" >
	<field name="lo" access="RW" offset="0x0.0" size="0x4.0" />
	<field name="hi" access="RW" offset="0x4.0" size="0x0.8" />
</node>
<node name="alt_ext" size="0x10.0" >
	<field name="bytes" access="RW" offset="0x0.0" size="0x10.0" low_bound="0" high_bound="15" />
</node>
</NodesDefinition>
