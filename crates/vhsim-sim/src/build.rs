//! Build a [`World`] from a resolved scenario.

use crate::app::AppState;
use crate::flow::Flow;
use crate::trace::{GoodputSeries, PacketTrace, TimeSeries, Traces};
use crate::world::World;
use vhsim_core::RngStreams;
use vhsim_net::{Link, LinkParams};
use vhsim_scenario::{Detail, Scenario};
use vhsim_tcp::{AckInfo, TcpSender, TcpSink};

/// Build the world of `scenario` with its own seed and the given detail level.
pub fn build(scenario: &Scenario, detail: Detail) -> World {
    let streams = RngStreams::new(scenario.seed);
    let links = scenario
        .links
        .iter()
        .map(|l| {
            // Each model draws from streams named after its link direction (`link/<name>/error`,
            // `/arq`, `/reorder`), so adding a link or a flow never changes another link's draws.
            let params = LinkParams { rate: l.rate, delay: l.delay };
            Link::build(&l.name, params, l.queue, &l.error, l.arq.as_ref(), l.reorder.as_ref(), &streams)
        })
        .collect();
    let n_handovers = crate::handover::records(scenario).len();
    let starts = crate::starts::start_times(scenario);
    let flows = scenario
        .flows
        .iter()
        .zip(starts)
        .map(|(f, start)| {
            let app = AppState::new(&f.app);
            let windows: Vec<_> = scenario.metrics.windows.iter().map(|w| (w.start, w.end)).collect();
            Flow {
                src: f.src,
                dst: f.dst,
                start,
                started: false,
                sender: TcpSender::new(f.tcp.clone(), app.initial_limit()),
                app,
                sink: TcpSink::new(f.sink.clone()),
                packet_size: f.tcp.packet_size(),
                segment_size: f.tcp.segment_size as u64,
                ack_size: f.sink.ack_size,
                truth: Default::default(),
                labels: Vec::new(),
                delivered_segments: 0,
                drops: [0; 4],
                window_bytes: vec![0; windows.len()],
                windows,
                sender_wakeup: None,
                sink_wakeup: None,
                last_snapshot: None,
                ack_scratch: AckInfo::default(),
                handover_stats: vec![Default::default(); n_handovers],
                open_handovers: 0,
                last_delivery: None,
                ld_matrix: [[0; 2]; 4],
            }
        })
        .collect();
    let traces = Traces {
        packets: (detail >= Detail::Packets).then(PacketTrace::default),
        timeseries: (detail >= Detail::Timeseries).then(TimeSeries::default),
        goodput: GoodputSeries { bins: vec![Vec::new(); scenario.flows.len()] },
    };
    World::new(scenario.clone(), links, flows, traces)
}
