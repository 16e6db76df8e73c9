"""The fingerprint store: every shipped scenario and preset behaves exactly as recorded.

A refactor moves no fingerprint. A deliberate behaviour change rewrites the store with
`vhsim fingerprints --update` and names every moved case and why in its commit message.
"""

from pathlib import Path

import pytest

from vhsim import fingerprints as fp

ROOT = Path(__file__).resolve().parent.parent


def test_every_fingerprint_matches_the_store():
    report = fp.check(ROOT, ROOT / fp.STORE)
    assert report.ok, "fingerprints differ from tests/fingerprints.tsv:\n" + "\n".join(report.lines())


def test_the_store_covers_every_shipped_scenario_and_preset():
    stored = fp.read_store(ROOT / fp.STORE)
    scenarios = {k[0] for k in stored}
    assert set(fp.shipped_scenarios(ROOT)) <= scenarios
    schemes = {k[1].rsplit("flows.*.scheme=", 1)[-1] for k in stored if "scheme=" in k[1]}
    from vhsim import schemes as all_schemes

    assert {n for n, _ in all_schemes()} <= schemes


def test_a_changed_scenario_is_reported_as_moved(tmp_path):
    # The check can fail: a store whose summary hash is altered reports that case as moved.
    case = fp.Case("scenarios/danielkojo/fig08-mbb.toml")
    good = fp.compute(ROOT, case)
    store = tmp_path / "store.tsv"
    fp.write_store(store, [(case, fp.Fingerprint(good.packets, good.timeseries, "0" * 16))])
    stored = fp.read_store(store)
    assert good.differs(stored[case.key]) == ["summary"]
    assert fp.compute(ROOT, case) == good  # deterministic
