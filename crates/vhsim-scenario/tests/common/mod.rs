//! The two-cell topology the mobility tests share.

/// cn -(100 Mb/s, 10 ms)- r -(old 6 Mb/s, 10 ms | new 11 Mb/s, 10 ms)- mn; one TCP flow to the
/// MN with the default 1000 + 40 B segments and 40 B ACKs; a run of `duration`, `mobile_extra`
/// lines (e.g. a warning) in `[mobile]`. Ends after the interfaces: a `[mobile.mobility]` table
/// or a timeline can follow.
pub fn two_cells(duration: &str, mobile_extra: &str) -> String {
    format!(
        r#"
duration = "{duration}"
[nodes.cn]
[nodes.r]
[nodes.mn]
[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "10ms"
[links.old]
between = ["r", "mn"]
rate = "6Mbps"
delay = "10ms"
[links.new]
between = ["r", "mn"]
rate = "11Mbps"
delay = "10ms"
[flows.bulk]
from = "cn"
to = "mn"
[mobile]
node = "mn"
anchor = "r"
initial = "old"
{mobile_extra}
[mobile.interfaces.old]
access = "old"
[mobile.interfaces.new]
access = "new"
"#
    )
}
