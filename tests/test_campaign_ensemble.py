"""Robustness labels and ambiguity alternatives (vhsim.campaign.ensemble, .variants): the labelling
rule on synthetic verdict lists at both sides of each threshold, the deterministic draws of a
variant, the rewrite of a campaign definition (a product grid, a zipped one, a figure's own axis,
configurations an alternative leaves alone), and every paper's declarations against its grids."""

from __future__ import annotations

import json

import pytest

from vhsim.campaign.axes import Axis, AxisValue
from vhsim.campaign.ensemble import FLIPS, FRAGILE, ROBUST, label
from vhsim.campaign.reproduce import papers
from vhsim.campaign.spec import CampaignSpec
from vhsim.campaign.variants import (Alternative, FlowStarts, LinkDelays, Perturbation, Seeds, alternative_spec,
                                     perturbed_spec, rewrite)

from conftest import REPO

H, F, N = "holds", "does not hold", "not checkable"


# -- the labelling rule ------------------------------------------------------------------------------
@pytest.mark.parametrize("default, variants, kind, agree", [
    (H, [H] * 10, ROBUST, 10),
    (H, [H] * 9 + [F], ROBUST, 9),           # 90%: the threshold itself
    (H, [H] * 8 + [F] * 2, FRAGILE, 8),      # 80%
    (H, [H] * 5 + [F] * 5, FRAGILE, 5),      # half: not yet a flip
    (H, [H] * 4 + [F] * 6, FLIPS, 4),        # fewer than half agree
    (F, [H] * 10, FLIPS, 0),
    (H, [H, H, H], ROBUST, 3),
    (H, [H, H, F], FRAGILE, 2),
    (H, [H, F, N], FLIPS, 1),                 # "not checkable" is another verdict too
    (N, [N, N, N, N, H], FRAGILE, 4),         # 80% of 5
    (H, [H] * 5, ROBUST, 5),
    (H, [H], ROBUST, 1),
    (H, [F], FLIPS, 0),
])
def test_label_thresholds(default, variants, kind, agree):
    lab = label(default, variants)
    assert (lab.kind, lab.agree, lab.n) == (kind, agree, len(variants))
    assert str(lab) == f"{kind} ({agree}/{len(variants)})"


def test_label_needs_variants():
    with pytest.raises(ValueError, match="at least one variant"):
        label(H, [])


# -- variants -------------------------------------------------------------------------------------------
LOSS_SWEEP = (REPO / "scenarios" / "examples" / "loss-sweep.toml").read_text(encoding="utf-8")
SCHEMES = Axis("flows.bulk.scheme", tuple(AxisValue(s, s) for s in ("reno", "newreno", "sack")))
P = Axis("links.access.forward.error.p", tuple(AxisValue(p, p) for p in ("0.01", "0.05")))
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms"), Seeds()))


def spec(*axes: Axis, zip_axes: bool = False, fixed=()) -> CampaignSpec:
    return CampaignSpec(LOSS_SWEEP, "loss-sweep.toml", tuple(fixed), axes, zip_axes=zip_axes, replications=2)


def resolved(s: CampaignSpec, config: int) -> dict:
    c = s.configurations()[config]
    from vhsim.scenario import Scenario

    return Scenario(s.scenario_text, s.fixed + c.overrides(s.axes)).resolved()


def test_draws_are_deterministic_and_within_their_bounds():
    a, b = PERTURBATION.draw("demo", 1), PERTURBATION.draw("demo", 1)
    other = PERTURBATION.draw("demo", 2)
    part = PERTURBATION.parts[0]
    assert a.factor(part, "access") == b.factor(part, "access") != other.factor(part, "access")
    assert a.factor(part, "access") != a.factor(part, "wired")  # one factor per link
    assert a.base_seed() == b.base_seed() != other.base_seed()
    factors = [PERTURBATION.draw("p", k).factor(part, "x") for k in range(1, 200)]
    assert 0.95 <= min(factors) < 0.96 and 1.04 < max(factors) <= 1.05
    offsets = [PERTURBATION.draw("p", k).offset_ns(PERTURBATION.parts[1], "f") for k in range(1, 200)]
    assert 0 <= min(offsets) < 2_000_000 and 48_000_000 < max(offsets) < 50_000_000
    assert all(o % 1000 == 0 for o in offsets)
    assert set(a.drawn) >= {"link access", "link wired", "seed"}


def test_a_variant_perturbs_every_link_and_flow_and_keeps_the_grid():
    base = spec(SCHEMES, P)
    draw = PERTURBATION.draw("demo", 3)
    out = perturbed_spec(base, draw)
    assert (out.applied, out.total) == (6, 6)
    s = out.spec
    assert not s.zip_axes and [a.key for a in s.axes][:2] == [SCHEMES.key, P.key]  # a product stays a product
    assert s.seed == draw.base_seed() and s.seed != base.base_seed()
    for config in range(6):
        before, after = resolved(base, config), resolved(s, config)
        for x, y in zip(before["links"], after["links"]):
            link = x["name"].split("/")[0]
            assert abs(y["delay"] - x["delay"] * draw.factor(LinkDelays(0.05), link)) <= 500  # rounded to 1 us
        assert after["flows"][0]["start"] == draw.offset_ns(FlowStarts("50ms"), "bulk")
        assert after["flows"][0]["scheme"] == before["flows"][0]["scheme"]
    again = perturbed_spec(base, PERTURBATION.draw("demo", 3)).spec
    assert again.digest() == s.digest()  # variant k is the same definition every time


def test_a_delay_the_figure_sets_per_configuration_is_scaled_in_each_and_keeps_its_labels():
    delays = Axis("links.access.delay", (AxisValue("10ms", "10ms"), AxisValue("100ms", "100ms")))
    base = spec(SCHEMES, delays)
    draw = Perturbation((LinkDelays(0.05, links=("access",)),)).draw("demo", 1)
    s = perturbed_spec(base, draw).spec
    assert s.zip_axes and len(s.configurations()) == 6  # spelt out: the values differ per configuration
    f = draw.factor(LinkDelays(0.05), "access")
    for config, nominal in ((0, 10e6), (1, 100e6)):
        got = resolved(s, config)["links"]
        assert [d["delay"] for d in got if d["name"].startswith("wired")] == [1_000_000, 1_000_000]  # not listed
        assert all(abs(d["delay"] - nominal * f) <= 500 for d in got if d["name"].startswith("access"))
    labels = [c.labels(s.axes) for c in s.configurations()]
    assert [lab["links.access.delay"] for lab in labels[:2]] == ["10ms", "100ms"]  # the nominal value, as before


def test_an_own_axis_key_is_replaced_not_doubled():
    forward = Axis("links.access.forward.delay", (AxisValue("10ms", "10ms"), AxisValue("20ms", "20ms")))
    s = perturbed_spec(spec(forward), Perturbation((LinkDelays(0.05),)).draw("demo", 1)).spec
    keys = [a.key for a in s.axes]
    assert keys.count("links.access.forward.delay") == 1
    assert [v.label for v in s.axes[0].values] == ["10ms", "20ms"]
    assert s.axes[0].values[0].override != "10ms"


def test_an_alternative_changes_only_the_configurations_it_applies_to():
    base = spec(SCHEMES, P)
    alt = Alternative("sbs", "NewReno's Slow-but-Steady timer", {"flows.bulk.tcp.recovery.timer": "slow_but_steady"},
                      ours="Impatient")
    out = alternative_spec(base, alt)
    assert out.spec is not None and out.spec.zip_axes
    from vhsim import __version__

    runs = {(r.config, r.rep): r.run_id for r in out.spec.plan(__version__)}
    default = {(r.config, r.rep): r.run_id for r in base.plan(__version__)}
    changed = {k for k in runs if runs[k] != default[k]}
    assert changed and len(changed) < len(runs)
    # Only the configurations whose resolved scenario the override changes get it.
    for c in out.spec.configurations():
        before = resolved(base, c.index)["flows"][0]["transport"]["tcp"]["recovery"]
        assert ((c.index, 0) in changed) == (before["kind"] == "new_reno")
    assert (out.applied, out.total, len(changed)) == (2, 6, 4)  # NewReno at both loss rates, 2 replications
    assert "timer" in out.why_not  # why the others are left alone


def test_an_alternative_that_is_invalid_or_the_figures_own_axis_does_not_apply():
    base = spec(SCHEMES, P)
    clash = alternative_spec(base, Alternative("x", "", {"flows.bulk.scheme": "newreno"}, ""))
    assert clash.spec is None and "varies flows.bulk.scheme" in clash.why_not
    parent = alternative_spec(base, Alternative("x", "", {"links.access.forward.error": '{ kind = "none" }'}, ""))
    assert parent.spec is None and "links.access.forward.error.p" in parent.why_not
    invalid = alternative_spec(base, Alternative("x", "", {"flows.bulk.sctp.rtx_to_alt": "same"}, ""))
    assert invalid.spec is None and "sctp" in invalid.why_not and invalid.describe().startswith("does not apply")
    same = alternative_spec(base, Alternative("x", "", {"flows.bulk.tcp.window": "64pkt"}, ""))
    assert same.spec is None and same.why_not == "already the figure's setting"


def test_a_reading_a_configuration_cannot_have_says_why_in_words():
    # Issue #23 item 6: Mobile IP's configurations have no Delivery Service, so the DS readings'
    # keys (agents[0]...) do not exist there; the report names the reading and what it needs, not
    # the scenario's "index 0 is out of range".
    sobral = papers()["sobral"]
    for name in ("ds-packet-age", "ds-buffer-80kbit", "ds-ack-every-2", "fh-in-flight-delivered"):
        alt = next(a for a in sobral.ambiguities if a.name == name)
        out = alternative_spec(sobral.figure("fig4").campaign(False), alt)
        assert out.why_not == f"not applicable: {name} needs {alt.needs}", out.why_not
        assert "out of range" not in out.describe() and "only allowed" not in out.describe()
    assert "Mobile IP has none" in next(a for a in sobral.ambiguities if a.name == "ds-packet-age").needs
    # undeclared: the scenario's own one-line error, under the reading's name
    invalid = alternative_spec(spec(SCHEMES, P), Alternative("sctp-option", "", {"flows.bulk.sctp.rtx_to_alt": "same"}, ""))
    assert invalid.why_not.startswith("not applicable: the scenario rejects sctp-option's override (flows.bulk.sctp")


def test_a_schemes_own_option_changes_only_that_schemes_configurations():
    # The window resolves for every scheme; declared as SACK's option it leaves Reno and NewReno alone.
    alt = Alternative("x", "", {"flows.bulk.tcp.window": "32pkt"}, "", schemes=("sack",))
    out = alternative_spec(spec(SCHEMES, P), alt)
    assert (out.applied, out.total) == (2, 6) and out.why_not == "not a configuration of sack"
    for c in out.spec.configurations():
        assert dict(c.overrides(out.spec.axes)).get("flows.bulk.tcp.window") == \
            ("32pkt" if c.labels(out.spec.axes)["flows.bulk.scheme"] == "sack" else None)


def test_the_axis_that_leaves_a_configuration_alone_round_trips():
    a = Axis("flows.bulk.tcp.window", (AxisValue("\u2013", None), AxisValue("32pkt", "32pkt")))
    assert Axis.from_json(json.loads(json.dumps(a.to_json()))) == a
    s = spec(a, zip_axes=True)
    assert [c.overrides(s.axes) for c in s.configurations()] == [(), (("flows.bulk.tcp.window", "32pkt"),)]


def test_rewrite_without_extra_keeps_the_definition():
    base = spec(SCHEMES, P)
    new, changed = rewrite(base, lambda overrides: {})
    assert changed == 0 and new.axes == base.axes and not new.zip_axes


# -- every paper's declarations ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sobral", "kimkoh", "park", "limjang", "danielkojo", "demo"])
def test_every_paper_declares_a_perturbation_and_alternatives_that_apply(name):
    paper = papers()[name]
    assert paper.perturbation is not None and paper.perturbation.describe()
    assert paper.ambiguities, f"{name} declares no alternative readings"
    names = [a.name for a in paper.ambiguities]
    assert len(set(names)) == len(names) and all(a.text for a in paper.ambiguities)
    figures = [f for f in paper.figures if f.claims]
    specs = [f.campaign(True) for f in figures]
    for alt in paper.ambiguities:  # every alternative changes some configuration of the quick grids
        rewrites = [alternative_spec(s, alt) for s in specs]
        assert any(r.spec is not None for r in rewrites), (alt.name, [r.why_not for r in rewrites])
    draw = paper.perturbation.draw(name, 1)
    for s in specs[:3]:
        assert perturbed_spec(s, draw).applied > 0


def test_a_paper_that_declares_nothing_is_refused_before_anything_runs(tmp_path):
    from dataclasses import replace

    from vhsim.campaign.axes import CampaignError
    from vhsim.campaign.reproduce import register, reproduce

    bare = register(replace(papers()["demo"], name="demo-bare", perturbation=None, ambiguities=()))
    try:
        with pytest.raises(CampaignError, match="demo-bare declares no perturbation"):
            reproduce("demo-bare", quick=True, out=tmp_path / "out", robustness=2)
        with pytest.raises(CampaignError, match="declares no alternative readings"):
            reproduce("demo-bare", quick=True, out=tmp_path / "out", ambiguities=True)
        assert not (tmp_path / "out").exists()
    finally:
        from vhsim.campaign import reproduce as R

        R._REGISTRY.pop("demo-bare", None)


# -- the readings of issues #25 (kimkoh) and #26 (sobral), on the quick grids -----------------------------
def _case(labels: dict) -> str:
    return labels["timeline[1]"]


#: (paper, alternative) -> which configurations of its claimed figures it must change (their labels).
WHERE = {
    ("kimkoh", "hr-cwnd-reset"): lambda lab: lab["flows.ftp.scheme"] == "hr-msctp",
    ("kimkoh", "mt-region-add-ip"): lambda lab: lab["flows.ftp.scheme"] == "mt-msctp",
    **{("kimkoh", name): lambda lab: True for name in ("rtx-timeouts-only", "rtx-never-alternate", "max-burst-every-send",
                                                      "no-delayed-sack", "ns2-buffer-64k", "set-primary-from-new",
                                                      "idle-cwnd-reset")},
    # The forced handover's options: forced handovers only, and not where the figure already sets them.
    ("sobral", "fh-in-flight-delivered"): lambda lab: _case(lab).startswith("FH") and "delivered" not in _case(lab),
    ("sobral", "fh-uplink-at-failure"): lambda lab: _case(lab).startswith("FH") and "at_failure" not in _case(lab),
    # The Delivery Service's policies: every case with a DS (Mobile IP has none).
    **{("sobral", name): lambda lab: _case(lab) != "MIP" for name in ("ds-packet-age", "ds-buffer-80kbit",
                                                                      "ds-ack-every-2")},
    ("sobral", "no-exit-fast-retrans"): lambda lab: lab["flows.cbr.scheme"] == "newreno",
    ("sobral", "min-rto-1s"): lambda lab: True,
    ("sobral", "delayed-ack"): lambda lab: True,
    # The readings of the simulator (docs/references.md §1.1) and of the RFCs: every configuration.
    **{(paper, name): lambda lab: True for paper, name in (("sobral", "initial-rto-6s"), ("sobral", "rfc-defaults"),
                                                           ("kimkoh", "ssthresh-receive-buffer"),
                                                           ("kimkoh", "rfc-defaults"))},
}


def _has(alt: Alternative, overrides: set) -> bool:
    """Whether a configuration's ``overrides`` carry ``alt``: all its overrides, and some of its
    ``where_flows`` entries if it has only those."""
    where = set(alt.where_flows.items())
    return set(alt.overrides.items()) <= overrides and (not where or bool(where & overrides))


@pytest.mark.parametrize("paper_name, alt_name", sorted(WHERE))
def test_each_reading_changes_exactly_the_configurations_it_is_about(paper_name, alt_name):
    paper = papers()[paper_name]
    alt = next(a for a in paper.ambiguities if a.name == alt_name)
    assert alt.ours and alt.text and alt.describe()  # the scenario's value is stated beside the alternative
    expected_somewhere = False
    for fig in (f for f in paper.figures if f.claims):
        base = fig.campaign(True)
        out = alternative_spec(base, alt)
        changed = [_has(alt, set(c.overrides(out.spec.axes))) for c in out.spec.configurations()] \
            if out.spec is not None else [False] * len(base.configurations())
        for c, got in zip(base.configurations(), changed):  # the rewrite keeps the configurations' order
            want = WHERE[paper_name, alt_name](c.labels(base.axes))
            assert got == want, (fig.id, c.labels(base.axes))
            expected_somewhere |= want
    assert expected_somewhere


def test_every_declared_reading_of_kimkoh_and_sobral_is_tested():
    declared = {(p, a.name) for p in ("kimkoh", "sobral") for a in papers()[p].ambiguities}
    assert declared == set(WHERE)


# -- the simulator's own readings: the RFC set and older ns-2 releases (docs/references.md §1.1) ----------
def _flows(resolved: dict, group: str) -> list[dict]:
    return [f for f in resolved["flows"] if str(f["name"]).split(".")[0] == group]


def _tcp(f: dict) -> dict:
    return f["transport"]["tcp"]


NS227 = lambda f: (_tcp(f)["min_rto"], _tcp(f)["initial_rto"]) == ("1s", "6s")  # noqa: E731
#: (paper, reading, a figure with claims) -> (flow group, what must hold of each of its flows under the
#: reading and not by default).  The figures are those where the reading's scope shows: limjang's
#: congested Figure 13 has the cross flows, park's fairness figure the flows named `ftp`.
SIMULATOR_READINGS = {
    ("sobral", "initial-rto-6s", "fig4"): ("cbr", lambda f: _tcp(f)["initial_rto"] == "6s"),
    ("sobral", "rfc-defaults", "fig4"): ("cbr", lambda f: (_tcp(f)["min_rto"], _tcp(f)["window"],
                                                           f["transport"]["sink"]["delayed_ack"]) == ("1s", "40pkt", True)),
    ("kimkoh", "ssthresh-receive-buffer", "fig9"): ("ftp", lambda f: f["transport"]["config"]["initial_ssthresh"]
                                                    == 1 << 20),
    ("kimkoh", "rfc-defaults", "fig9"): ("ftp", lambda f: f["transport"]["config"]["rto_initial"] == 1_000_000_000),
    ("limjang", "ns2.27-timers", "fig13"): ("tcp", NS227),
    ("limjang", "ns2.27-timers", "fig13 "): ("cross", NS227),  # every cross flow too
    ("limjang", "rfc-defaults", "fig13"): ("cross", lambda f: (_tcp(f)["window"], _tcp(f)["min_rto"]) == ("65pkt", "1s")),
    ("park", "delayed-ack", "fig3a"): ("bulk", lambda f: f["transport"]["sink"]["delayed_ack"] is True),
    ("park", "delayed-ack", "fairness"): ("ftp", lambda f: f["transport"]["sink"]["delayed_ack"] is True),
    ("park", "ns2.27-timers", "fig3a"): ("bulk", NS227),
    ("park", "ns2.27-timers", "fairness"): ("ftp", NS227),
    ("park", "rfc-defaults", "fig4b"): ("bulk", lambda f: (_tcp(f)["min_rto"], _tcp(f)["window"]) == ("1s", "100pkt")),
    ("danielkojo", "rfc-defaults", "fig2"): ("bulk", lambda f: (_tcp(f)["clock_granularity"], _tcp(f)["initial_window"],
                                                                _tcp(f)["min_rto"], _tcp(f)["initial_rto"])
                                             == ("1ms", 3, "200ms", "6s")),
}


@pytest.mark.parametrize("paper_name, alt_name, fig_id", sorted(SIMULATOR_READINGS))
def test_a_reading_of_the_simulator_resolves_and_changes_its_papers_runs(paper_name, alt_name, fig_id):
    from vhsim.scenario import Scenario

    paper = papers()[paper_name]
    alt = next(a for a in paper.ambiguities if a.name == alt_name)
    assert alt.text and alt.ours and alt.describe()
    group, holds = SIMULATOR_READINGS[paper_name, alt_name, fig_id]
    base = paper.figure(fig_id.strip()).campaign(True)
    out = alternative_spec(base, alt)
    assert out.spec is not None and out.applied == out.total, out.describe()  # every configuration changes
    for c_base, c_alt in zip(base.configurations(), out.spec.configurations()):
        before = Scenario(base.scenario_text, base.fixed + c_base.overrides(base.axes), base.scenario_path).resolved()
        after = Scenario(out.spec.scenario_text, out.spec.fixed + c_alt.overrides(out.spec.axes),
                         out.spec.scenario_path).resolved()
        assert _flows(after, group) and all(holds(f) for f in _flows(after, group)), c_alt.labels(out.spec.axes)
        assert not any(holds(f) for f in _flows(before, group))


def test_the_scenarios_set_of_defaults_is_a_reading_of_every_paper():
    for name in ("sobral", "kimkoh", "park", "limjang", "danielkojo"):
        alt = next(a for a in papers()[name].ambiguities if a.name == "rfc-defaults")
        assert dict(alt.overrides) == {"defaults": "rfc"} and "ns-2.35" in alt.ours


def test_where_flows_apply_where_the_flow_exists_and_are_checked_when_declared():
    # loss-sweep.toml has one flow, `bulk`: the reading's `other` flow is absent, so only bulk's key applies.
    alt = Alternative("x", "", {}, "", where_flows={"flows.bulk.tcp.min_rto": "2s", "flows.other.tcp.min_rto": "2s"})
    out = alternative_spec(spec(SCHEMES, P), alt)
    assert (out.applied, out.total) == (6, 6)
    for c in out.spec.configurations():
        overrides = dict(c.overrides(out.spec.axes))
        assert overrides["flows.bulk.tcp.min_rto"] == "2s" and "flows.other.tcp.min_rto" not in overrides
    assert "where the configuration has the flow" in alt.describe()
    none = alternative_spec(spec(SCHEMES, P), Alternative("y", "", {}, "", where_flows={"flows.other.tcp.min_rto": "1s"}))
    assert none.spec is None and none.why_not == "not applicable: y needs one of the flows it names"
    with pytest.raises(ValueError, match="where_flows keys must name a flow .*not defaults"):
        Alternative("z", "", {}, "", where_flows={"defaults": "rfc"})


def test_a_set_of_defaults_the_scenario_does_not_know_is_refused_with_its_key():
    # The top-level `defaults` goes through the alternative's overrides like any key; a name the
    # scenario does not know is not applied, and the report names the key and the allowed names.
    out = alternative_spec(spec(SCHEMES, P), Alternative("ns2", "", {"defaults": "ns2"}, ""))
    assert out.spec is None
    assert out.why_not.startswith("not applicable: the scenario rejects ns2's override (defaults: unknown variant `ns2`")
    assert "`rfc` or `ns-2.35`" in out.why_not
    # The example states no set: it runs the RFC set already, so that reading changes nothing there.
    assert "\ndefaults" not in LOSS_SWEEP
    rfc = alternative_spec(spec(SCHEMES, P), Alternative("rfc", "", {"defaults": "rfc"}, ""))
    assert rfc.spec is None and rfc.why_not == "already the figure's setting"
    ns2 = alternative_spec(spec(SCHEMES, P), Alternative("ns2", "", {"defaults": "ns-2.35"}, ""))
    assert (ns2.applied, ns2.total) == (6, 6)
