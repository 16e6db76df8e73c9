"""Names of the columns of a campaign's result table and of the trace tables, in one place.

Reproductions never spell a result column as a string literal: they build it here, so that
when the transport-neutral core publishes its summary's JSON Schema (issue #18 item 10) this
module can be generated from it and every use is checked at once.

Result columns (:func:`vhsim.campaign.flatten_summary`):

* per flow ``<flow>.<metric>``: :func:`flow` (``bulk.goodput_kbps``);
* per handover k of a flow ``<flow>.ho<k>.<metric>``: :func:`handover`;
* per link direction ``<link>/<direction>.<metric>``: :func:`link`;
* LD's decisions against the ground truth ``<flow>.ld_<truth>_as_<verdict>``: :func:`ld`.
"""

from __future__ import annotations

# -- per-flow metrics -------------------------------------------------------------------------
GOODPUT_KBPS = "goodput_kbps"
SEGMENTS_SENT = "segments_sent"
RETRANSMISSIONS = "retransmissions"
RTO_COUNT = "rto_count"
SPURIOUS_RTO_COUNT = "spurious_rto_count"
FAST_RETRANSMITS = "fast_retransmits"
LD_DECISIONS = "ld_decisions"

# -- per-handover metrics (windows set by the scenario's [metrics]) ----------------------------
TIME_TO_N_ACKED_S = "time_to_n_acked_s"
THROUGHPUT_BEFORE_KBPS = "throughput_before_kbps"
THROUGHPUT_AFTER_KBPS = "throughput_after_kbps"
RTOS = "rtos"
SPURIOUS_RTOS = "spurious_rtos"
SPURIOUS_RETRANSMISSIONS = "spurious_retransmissions"

# -- drops, per flow or per link direction (one column per cause) ------------------------------
PACKETS_SENT = "packets_sent"


def drops(cause: str) -> str:
    """``drops_<cause>``; causes: ``queue_overflow``, ``error_model``, ``link_down``."""
    return f"drops_{cause}"


# -- LD against the ground truth -----------------------------------------------------------------
LD_TRUTHS = ("wireless", "congestion", "not_lost", "link_down")
LD_VERDICTS = ("wireless", "congestion")


def flow(name: str, metric: str) -> str:
    return f"{name}.{metric}"


def handover(name: str, metric: str, k: int = 0) -> str:
    return f"{name}.ho{k}.{metric}"


def link(name: str, metric: str, direction: str = "forward") -> str:
    return f"{link_direction(name, direction)}.{metric}"


def link_direction(name: str, direction: str = "forward") -> str:
    """A link direction as the summary and the packet trace's ``link`` column name it."""
    return f"{name}/{direction}"


def ld(name: str, truth: str, verdict: str) -> str:
    return f"{name}.ld_{truth}_as_{verdict}"


# -- trace tables (vhsim.Result.trace) ----------------------------------------------------------
TIME = "time_s"
FLOW = "flow"
# packets: one row per packet event
EVENT, SEQ, LINK, CAUSE, SPURIOUS = "event", "seq", "link", "cause", "spurious"
SEND, RETRANSMIT, ACK_RECEIVE, DROP = "send", "retransmit", "ack_receive", "drop"
# timeseries: one row per change of the sender's state
CWND, SSTHRESH, SRTT, RTO, FLIGHT, STATE = "cwnd_pkts", "ssthresh_pkts", "srtt_s", "rto_s", "flight_pkts", "state"
LD_TCUR, LD_THRESHOLD = "ld_tcur_s", "ld_threshold_s"
OPEN, RECOVERY, LOSS = "open", "recovery", "loss"
