//! Time-window loss: nothing lost outside the windows, rate p inside (Kim & Koh: 3 % during
//! 48–50 s; docs/references.md §14).

mod common;

use common::data;
use vhsim_core::{RngStreams, SimTime};
use vhsim_net::error::{LossWindow, TimeWindow};

#[test]
fn loses_at_rate_p_inside_each_window_and_never_outside() {
    let s = |x: f64| SimTime((x * 1e9) as u64);
    let windows = [
        LossWindow { start: s(50.5), end: s(51.0), p: 0.2 },
        LossWindow { start: s(48.0), end: s(50.0), p: 0.03 },
    ];
    let mut m = TimeWindow::new(&windows, RngStreams::new(9).stream("link/wlan/error"));
    let pkt = data(0, 1000);
    // One packet every 2 us from 47 s to 52 s: 10^6 inside [48, 50), 250 000 inside [50.5, 51).
    let (mut inside, mut lost) = ([0u64; 2], [0u64; 2]);
    for k in 0..2_500_000u64 {
        let t = SimTime(47_000_000_000 + k * 2_000);
        let l = m.drops(t, &pkt);
        let w = windows.iter().position(|w| t >= w.start && t < w.end);
        match w {
            None => assert!(!l, "lost at {t:?}, outside every window"),
            Some(w) => {
                inside[w] += 1;
                lost[w] += u64::from(l);
            }
        }
    }
    assert_eq!(inside, [250_000, 1_000_000]);
    for w in 0..2 {
        let rate = lost[w] as f64 / inside[w] as f64;
        assert!((rate - windows[w].p).abs() / windows[w].p < 0.05, "window {w}: {rate}");
    }
}

#[test]
fn window_bounds_are_half_open() {
    let w = [LossWindow { start: SimTime(100), end: SimTime(200), p: 1.0 }];
    let mut m = TimeWindow::new(&w, RngStreams::new(1).stream("x"));
    let pkt = data(0, 1000);
    let lost: Vec<bool> = [99, 100, 199, 200].iter().map(|&t| m.drops(SimTime(t), &pkt)).collect();
    assert_eq!(lost, [false, true, true, false]);
}
