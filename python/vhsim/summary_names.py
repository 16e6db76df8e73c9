"""Names of the figures of ``summary.json``, generated from its JSON Schema by
``vhsim.metrics.names_module()`` (regenerate: ``python -m vhsim.metrics > python/vhsim/summary_names.py``;
do not edit).

Build campaign columns from these with :mod:`vhsim.campaign.metrics` (``M.flow("bulk",
Flow.GOODPUT_KBPS)``) instead of spelling them as string literals.
"""


class Run:
    """Run-level figures (campaign column ``<name>``)."""

    #: Packets the anchor forwarded to a new care-of address during binding updates (`mobile.binding.old_path = "f...
    BINDING_FORWARDED = "binding_forwarded"
    #: Data segments delivered in order, all flows.
    DELIVERED_SEGMENTS = "delivered_segments"
    #: Events processed.
    EVENTS = "events"
    #: Scenario name.
    SCENARIO = "scenario"
    #: Master seed.
    SEED = "seed"
    #: Simulated seconds.
    SIM_S = "sim_s"
    #: When the run stopped because every handover metric and goodput window was determined (`metrics.stop = "when...
    STOPPED_AT_S = "stopped_at_s"


class Flow:
    """Per-flow figures, transport parts included (``<flow>.<name>``)."""

    #: ASCONF requests refused with an error cause (either endpoint's requests). (sctp)
    ASCONF_ERRORS = "asconf_errors"
    #: ASCONF retransmissions after a T4-RTO expiry (either endpoint). (sctp)
    ASCONF_RETRANSMISSIONS = "asconf_retransmissions"
    #: ASCONF chunks sent (in a flow's summary: by either endpoint). (sctp)
    ASCONF_SENT = "asconf_sent"
    #: When the association failed (Association.Max.Retrans exceeded), seconds. (sctp)
    ASSOCIATION_FAILED_AT_S = "association_failed_at_s"
    #: Cumulative TSN Ack Point. (sctp)
    CUM_TSN_ACKED = "cum_tsn_acked"
    #: Destination new data went to at the end (differs from the primary after failover). (sctp)
    DATA_PATH = "data_path"
    #: Payload bytes delivered in order.
    DELIVERED_BYTES = "delivered_bytes"
    #: packets of the flow dropped with cause agent
    DROPS_AGENT = "drops_agent"
    #: packets of the flow dropped with cause binding
    DROPS_BINDING = "drops_binding"
    #: packets of the flow dropped with cause error_model
    DROPS_ERROR_MODEL = "drops_error_model"
    #: packets of the flow dropped with cause link_down
    DROPS_LINK_DOWN = "drops_link_down"
    #: packets of the flow dropped with cause queue_overflow
    DROPS_QUEUE_OVERFLOW = "drops_queue_overflow"
    #: Duplicate DATA chunks received (in a flow's summary: by the receiving endpoint). (sctp)
    DUPLICATE_CHUNKS_RECEIVED = "duplicate_chunks_received"
    #: Fast Recovery episodes. (sctp)
    FAST_RECOVERIES = "fast_recoveries"
    #: Fast retransmits (recovery episodes entered by duplicate ACKs or TCP-DCR's delay). (tcp)
    FAST_RETRANSMITS = "fast_retransmits"
    #: Application goodput from the flow's start to the end of the run (kb/s, 1 kb = 1000 b).
    GOODPUT_KBPS = "goodput_kbps"
    #: Share of verdicts on real losses that matched the cause (null without real losses).
    LD_ACCURACY = "ld_accuracy"
    #: Verdicts `congestion` on units whose truth is `congestion`.
    LD_CONGESTION_AS_CONGESTION = "ld_congestion_as_congestion"
    #: Verdicts `wireless` on units whose truth is `congestion`.
    LD_CONGESTION_AS_WIRELESS = "ld_congestion_as_wireless"
    #: Verdicts in all.
    LD_DECISIONS = "ld_decisions"
    #: Verdicts `congestion` on units whose truth is `link_down`.
    LD_LINK_DOWN_AS_CONGESTION = "ld_link_down_as_congestion"
    #: Verdicts `wireless` on units whose truth is `link_down`.
    LD_LINK_DOWN_AS_WIRELESS = "ld_link_down_as_wireless"
    #: Verdicts `congestion` on units whose truth is `not_lost`.
    LD_NOT_LOST_AS_CONGESTION = "ld_not_lost_as_congestion"
    #: Verdicts `wireless` on units whose truth is `not_lost`.
    LD_NOT_LOST_AS_WIRELESS = "ld_not_lost_as_wireless"
    #: Verdicts `congestion` on units whose truth is `wireless`.
    LD_WIRELESS_AS_CONGESTION = "ld_wireless_as_congestion"
    #: Verdicts `wireless` on units whose truth is `wireless`.
    LD_WIRELESS_AS_WIRELESS = "ld_wireless_as_wireless"
    #: The mobile node the flow has an endpoint on (its receiver's, else its sender's); only when the scenario has...
    MOBILE = "mobile"
    #: Primary destination (path index). (sctp)
    PRIMARY_PATH = "primary_path"
    #: Set-Primary requests the sender applied (mSCTP). (sctp)
    PRIMARY_SWITCHES = "primary_switches"
    #: Retransmissions.
    RETRANSMISSIONS = "retransmissions"
    #: Retransmission timeouts.
    RTO_COUNT = "rto_count"
    #: SACKs received and processed. (sctp)
    SACKS_RECEIVED = "sacks_received"
    #: SACKs sent (in a flow's summary: by the receiving endpoint). (sctp)
    SACKS_SENT = "sacks_sent"
    #: Scheme preset.
    SCHEME = "scheme"
    #: Data packets sent, retransmissions included.
    SEGMENTS_SENT = "segments_sent"
    #: Retransmissions whose earlier copy had not been lost (ground truth).
    SPURIOUS_RETRANSMISSIONS = "spurious_retransmissions"
    #: Timeouts whose retransmission was spurious (ground truth).
    SPURIOUS_RTO_COUNT = "spurious_rto_count"
    #: When the flow started (s); drawn for flows with a `start_spread`.
    START_S = "start_s"
    #: Highest TSN assigned (= DATA chunks sent for the first time). (sctp)
    TSNS_SENT = "tsns_sent"


class Handover:
    """Per-flow, per-handover figures (``<flow>.ho<k>.<name>``)."""

    #: Goodput (kb/s) in the window after it completed.
    GOODPUT_AFTER_KBPS = "goodput_after_kbps"
    #: Goodput (kb/s) in the window before the handover.
    GOODPUT_BEFORE_KBPS = "goodput_before_kbps"
    #: Last in-order delivery before the handover to the first after it.
    INTERRUPTION_S = "interruption_s"
    #: Cross-layer notifications of this handover the sender received.
    NOTIFICATIONS = "notifications"
    #: Timeouts from the start of the handover to the end of its window.
    RTOS = "rtos"
    #: Spurious retransmissions sent in that window (ground truth).
    SPURIOUS_RETRANSMISSIONS = "spurious_retransmissions"
    #: Of those, spurious (ground truth).
    SPURIOUS_RTOS = "spurious_rtos"
    #: Throughput after.
    THROUGHPUT_AFTER_KBPS = "throughput_after_kbps"
    #: Throughput (kb/s of data arriving at the receiver, duplicates included) before.
    THROUGHPUT_BEFORE_KBPS = "throughput_before_kbps"
    #: Time from the start of the handover until `n` segments sent after it were cumulatively acknowledged (Daniel...
    TIME_TO_N_ACKED_S = "time_to_n_acked_s"


class Path:
    """Per-path figures of a transport part (``<flow>.path<i>.<name>``)."""

    #: Whether the destination was active. (sctp, per path)
    ACTIVE = "active"
    #: Destination address (address table index). (sctp, per path)
    ADDRESS = "address"
    #: Times the destination became inactive (error counter above Path.Max.Retrans). (sctp, per path)
    BECAME_INACTIVE = "became_inactive"
    #: Whether a HEARTBEAT-ACK confirmed it (addresses added by ASCONF start unconfirmed). (sctp, per path)
    CONFIRMED = "confirmed"
    #: Congestion window, bytes. (sctp, per path)
    CWND_BYTES = "cwnd_bytes"
    #: DATA packets sent to this destination (first transmissions and retransmissions). (sctp, per path)
    DATA_PACKETS = "data_packets"
    #: Whether the peer deleted it from the association (Delete-IP). (sctp, per path)
    DELETED = "deleted"
    #: Error counter. (sctp, per path)
    ERROR_COUNT = "error_count"
    #: Chunks retransmitted here because they were marked by fast retransmit. (sctp, per path)
    FAST_RETRANSMISSIONS = "fast_retransmissions"
    #: Chunks retransmitted here by HR-mSCTP's handover retransmission. (sctp, per path)
    HANDOVER_RETRANSMISSIONS = "handover_retransmissions"
    #: HEARTBEAT-ACKs received for it. (sctp, per path)
    HEARTBEAT_ACKS = "heartbeat_acks"
    #: HEARTBEATs unanswered within an RTO. (sctp, per path)
    HEARTBEAT_TIMEOUTS = "heartbeat_timeouts"
    #: HEARTBEATs sent to this destination. (sctp, per path)
    HEARTBEATS_SENT = "heartbeats_sent"
    #: DATA chunks sent here for the first time. (sctp, per path)
    NEW_CHUNKS = "new_chunks"
    #: Path index (position in the peer's address list). (sctp, per path)
    PATH = "path"
    #: Retransmission timeout, seconds. (sctp, per path)
    RTO_S = "rto_s"
    #: Smoothed RTT, seconds (absent without a measurement). (sctp, per path)
    SRTT_S = "srtt_s"
    #: Slow-start threshold, bytes. (sctp, per path)
    SSTHRESH_BYTES = "ssthresh_bytes"
    #: T3-rtx expiries of this destination. (sctp, per path)
    T3_EXPIRIES = "t3_expiries"
    #: Chunks retransmitted here because a T3-rtx expiry marked them. (sctp, per path)
    TIMEOUT_RETRANSMISSIONS = "timeout_retransmissions"
    #: Fast retransmit episodes that cut this destination's window (§7.2.4 step 2). (sctp, per path)
    WINDOW_CUTS = "window_cuts"


class Link:
    """Per-link-direction figures (``<link>/<direction>.<name>``)."""

    #: packets dropped on the link with cause agent
    DROPS_AGENT = "drops_agent"
    #: packets dropped on the link with cause binding
    DROPS_BINDING = "drops_binding"
    #: packets dropped on the link with cause error_model
    DROPS_ERROR_MODEL = "drops_error_model"
    #: packets dropped on the link with cause link_down
    DROPS_LINK_DOWN = "drops_link_down"
    #: packets dropped on the link with cause queue_overflow
    DROPS_QUEUE_OVERFLOW = "drops_queue_overflow"
    #: Packets that finished serialization.
    PACKETS_SENT = "packets_sent"
    #: packets dropped on the link with cause agent while a handover window was open (exact in a run stopped early)
    WINDOW_DROPS_AGENT = "window_drops_agent"
    #: packets dropped on the link with cause binding while a handover window was open (exact in a run stopped early)
    WINDOW_DROPS_BINDING = "window_drops_binding"
    #: packets dropped on the link with cause error_model while a handover window was open (exact in a run stopped...
    WINDOW_DROPS_ERROR_MODEL = "window_drops_error_model"
    #: packets dropped on the link with cause link_down while a handover window was open (exact in a run stopped e...
    WINDOW_DROPS_LINK_DOWN = "window_drops_link_down"
    #: packets dropped on the link with cause queue_overflow while a handover window was open (exact in a run stop...
    WINDOW_DROPS_QUEUE_OVERFLOW = "window_drops_queue_overflow"


class Agent:
    """Per-node-agent figures (``agent<i>.<name>``)."""

    #: Acknowledgments seen.
    ACKS = "acks"
    #: Packets addressed to it that it consumed.
    CONSUMED = "consumed"
    #: Control packets seen.
    CONTROL = "control"
    #: Data packets seen.
    DATA = "data"
    #: Packets dropped.
    DROPPED = "dropped"
    #: Interfaces it declared failed.
    FAILURES = "failures"
    #: Packets held.
    HELD = "held"
    #: Copies kept of packets it forwarded (an acknowledged service).
    KEPT = "kept"
    #: Its kind.
    KIND = "kind"
    #: Node it runs at.
    NODE = "node"
    #: Held packets released.
    RELEASED = "released"
    #: Kept copies sent again.
    RESENT = "resent"
    #: Packets of its own sent.
    SENT = "sent"
    #: Packets forwarded without a kept copy (the acknowledged service's buffer was full).
    UNKEPT = "unkept"
