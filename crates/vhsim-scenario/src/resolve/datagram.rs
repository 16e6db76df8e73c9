//! The minimal datagram transport of a flow (`protocol = "datagram"`).

use crate::error::{err, join, Result};
use crate::model::TransportModel;
use crate::schema::FlowSpec;

/// The datagram sizes of flow `spec` at `path`; TCP-only keys are errors.
pub(super) fn resolve(spec: &FlowSpec, path: &str) -> Result<TransportModel> {
    for (key, present) in [("scheme", spec.scheme.is_some()), ("tcp", !spec.tcp.is_empty()), ("sink", !spec.sink.is_empty())] {
        if present {
            return Err(err(join(path, key), format!("`{key}` is a TCP key; a flow with protocol = \"datagram\" has `datagram = {{ size, header_size }}`")));
        }
    }
    let d = spec.datagram.as_ref();
    let size = d.and_then(|d| d.size).map_or(1000, |s| s.0);
    if size == 0 {
        return Err(err(join(path, "datagram.size"), "must be at least 1B"));
    }
    let header = d.and_then(|d| d.header_size).map_or(28, |s| s.0);
    let too_large = |k: &str, v: u64| err(join(path, k), format!("{v}B is too large"));
    Ok(TransportModel::Datagram {
        size: u32::try_from(size).map_err(|_| too_large("datagram.size", size))?,
        header_size: u32::try_from(header).map_err(|_| too_large("datagram.header_size", header))?,
    })
}
