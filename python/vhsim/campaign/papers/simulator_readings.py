"""Readings of the simulator itself, shared by the paper modules' ``AMBIGUITIES``.

Every paper scenario states ``defaults = "ns-2.35"`` (docs/scenario-format.md "Default sets"):
where a paper is silent, ns-2.35's values.  Two kinds of other reading remain plausible and are
declared here once:

* :func:`rfc_defaults`: the paper says "TCP" (or SCTP) without its settings and could mean a
  standard stack: the library's RFC set (``defaults = "rfc"``) for every key the scenario and
  the scheme leave open;
* :func:`ns2_timers`: an older ns-2 release than 2.35, whose TCP timers differ
  (docs/references.md §1.1: ``minrto_`` 1 s up to ns-2.27, 200 ms from 2.28; ``rtxcur_init_``
  6 s up to ns-2.29, 3 s from 2.30).
"""

from __future__ import annotations

from ..variants import Alternative

NS2_35 = "`defaults = \"ns-2.35\"`: ns-2.35's defaults, the paper's simulator's"


def rfc_defaults(changes: str) -> Alternative:
    """The RFC set of defaults in place of ns-2.35's; ``changes``: what it changes in this paper's
    runs (the keys neither the scenario nor the scheme sets), in words."""
    return Alternative("rfc-defaults", "a standard stack, not ns-2's: the RFC set of defaults (docs/scenario-format.md "
                                       f"\"Default sets\") where the scenario and the scheme are silent; here {changes}",
                       {"defaults": "rfc"}, ours=NS2_35)


# ns-2's TCP timers by release (docs/references.md §1.1): (minrto_, rtxcur_init_).
NS2_27_TIMERS = {"min_rto": "1s", "initial_rto": "6s"}   # ns-2.27 and earlier (minrto_ 200 ms from 2004-10-14)
NS2_29_TIMERS = {"initial_rto": "6s"}                    # ns-2.28, 2.29 (rtxcur_init_ 3 s from 2006-01-21)


def ns2_timers(name: str, release: str, timers: dict[str, str], flows: tuple[str, ...], why: str = "") -> Alternative:
    """An older ns-2 ``release``'s TCP ``timers`` (keys of ``[flows.<flow>.tcp]``) for each of
    ``flows`` a configuration has (every TCP agent of an ns-2 run has its release's defaults:
    limjang's cross flows too)."""
    said = {"min_rto": "minrto_ {v}", "initial_rto": "rtxcur_init_ (the initial RTO) {v}"}
    words = ", ".join(said[k].format(v=v) for k, v in timers.items())
    ours = {"min_rto": "`min_rto = 200ms`", "initial_rto": "`initial_rto = 3s`"}
    return Alternative(
        name, f"the TCP timers of {release}: {words}" + (f"; {why}" if why else ""), {},
        ours=", ".join(ours[k] for k in timers) + ": ns-2.35's (the scenarios' set of defaults)",
        where_flows={f"flows.{f}.tcp.{k}": v for f in flows for k, v in timers.items()})
