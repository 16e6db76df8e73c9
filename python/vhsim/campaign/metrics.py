"""Names of the columns of a campaign's result table and of the trace tables, in one place.

Reproductions never spell a result column as a string literal: they build it here from the
names :mod:`vhsim.summary_names` generates from the summary's JSON Schema (``Flow``,
``Handover``, ``Path``, ``Link``, ``Run``), so a figure the summary does not have fails at
import, not as an empty column.

Result columns (:func:`vhsim.campaign.flatten_summary`):

* per flow ``<flow>.<metric>``: :func:`flow` (``bulk.goodput_kbps``);
* per handover k of a flow ``<flow>.ho<k>.<metric>``: :func:`handover`;
* per link direction ``<link>/<direction>.<metric>``: :func:`link`;
* per node agent ``agent<i>.<metric>`` (i = its index in ``[[agents]]``): :func:`agent`;
* LD's decisions against the ground truth ``<flow>.ld_<truth>_as_<verdict>``: :func:`ld`.
"""

from __future__ import annotations

from ..summary_names import Agent, Flow, Handover, Link, Path, Run

__all__ = ["Agent", "Flow", "Handover", "Link", "Path", "Run", "agent", "flow", "handover", "link", "link_direction",
           "ld", "drops", "window", "window_drops"]

# -- per-flow metrics (the short names the reproductions use) ----------------------------------
GOODPUT_KBPS = Flow.GOODPUT_KBPS
SEGMENTS_SENT = Flow.SEGMENTS_SENT
RETRANSMISSIONS = Flow.RETRANSMISSIONS
RTO_COUNT = Flow.RTO_COUNT
SPURIOUS_RTO_COUNT = Flow.SPURIOUS_RTO_COUNT
FAST_RETRANSMITS = Flow.FAST_RETRANSMITS
LD_DECISIONS = Flow.LD_DECISIONS

# -- per-handover metrics (windows set by the scenario's [metrics]) ----------------------------
TIME_TO_N_ACKED_S = Handover.TIME_TO_N_ACKED_S
GOODPUT_AFTER_KBPS = Handover.GOODPUT_AFTER_KBPS
THROUGHPUT_BEFORE_KBPS = Handover.THROUGHPUT_BEFORE_KBPS
THROUGHPUT_AFTER_KBPS = Handover.THROUGHPUT_AFTER_KBPS
RTOS = Handover.RTOS
SPURIOUS_RTOS = Handover.SPURIOUS_RTOS
SPURIOUS_RETRANSMISSIONS = Handover.SPURIOUS_RETRANSMISSIONS

# -- drops, per flow or per link direction (one column per cause) ------------------------------
PACKETS_SENT = Link.PACKETS_SENT


def drops(cause: str) -> str:
    """``drops_<cause>``; causes: ``queue_overflow``, ``error_model``, ``link_down``."""
    return f"drops_{cause}"


def window_drops(cause: str) -> str:
    """A link direction's ``window_drops_<cause>``: its drops while a handover's window is open
    (``[start, done + metrics.handover_window)``), exact in a run stopped early."""
    return f"window_drops_{cause}"


# -- LD against the ground truth -----------------------------------------------------------------
LD_TRUTHS = ("wireless", "congestion", "not_lost", "link_down")
LD_VERDICTS = ("wireless", "congestion")


def flow(name: str, metric: str) -> str:
    return f"{name}.{metric}"


def window(name: str, window_name: str) -> str:
    """Flow ``name``'s goodput in the scenario's goodput window ``window_name``
    (``<flow>.goodput_kbps_<window>``)."""
    return f"{name}.{Flow.GOODPUT_KBPS}_{window_name}"


def handover(name: str, metric: str, k: int = 0) -> str:
    return f"{name}.ho{k}.{metric}"


def link(name: str, metric: str, direction: str = "forward") -> str:
    return f"{link_direction(name, direction)}.{metric}"


def link_direction(name: str, direction: str = "forward") -> str:
    """A link direction as the summary and the packet trace's ``link`` column name it."""
    return f"{name}/{direction}"


def ld(name: str, truth: str, verdict: str) -> str:
    return f"{name}.ld_{truth}_as_{verdict}"


def agent(index: int, metric: str) -> str:
    """Node agent ``index``'s figure (``agent<i>.<metric>``, ``metric`` an :class:`Agent` name;
    i = the agent's index in the scenario's ``[[agents]]``)."""
    return f"agent{index}.{metric}"


# -- trace tables (vhsim.Result.trace) ----------------------------------------------------------
TIME = "time_s"
FLOW = "flow"
# packets: one row per packet event
EVENT, SEQ, LINK, CAUSE, SPURIOUS = "event", "seq", "link", "cause", "spurious"
SEND, RETRANSMIT, ACK_RECEIVE, DROP, RECEIVE, ACK_DROP = "send", "retransmit", "ack_receive", "drop", "receive", "ack_drop"
ACK_SEND, PATH = "ack_send", "path"  # path: the mobile node's interface (index in [mobile.interfaces])
# timeseries: one row per change of the sender's state
CWND, SSTHRESH, SRTT, RTO, FLIGHT, STATE = "cwnd_pkts", "ssthresh_pkts", "srtt_s", "rto_s", "flight_pkts", "state"
LD_TCUR, LD_THRESHOLD = "ld_tcur_s", "ld_threshold_s"
OPEN, RECOVERY, LOSS = "open", "recovery", "loss"
GOODPUT_BYTES = "bytes"  # goodput: payload bytes delivered in order per interval
