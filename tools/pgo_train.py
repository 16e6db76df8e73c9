"""The training runs of a profile-guided build (tools/pgo-build.sh): the workloads the speed
figures and the reproductions spend their time in, each run once by the instrumented native
module, which records which branches and calls are hot (docs/performance.md "A profile-guided
build"). The runs' results are not kept."""

from pathlib import Path

import vhsim
from vhsim.bench_scale import scenario_text

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    # The benchmark's three scenarios: one bulk flow, the same with 1% loss, a handover run.
    vhsim.load(ROOT / "benches" / "bulk-sack1.toml").run(seed=1)
    vhsim.load(ROOT / "benches" / "bulk-sack1-loss1pct.toml").run(seed=1)
    vhsim.load(ROOT / "scenarios" / "danielkojo" / "fig08-mbb.toml").run(seed=1, detail="packets")
    # Lim & Jang's congested figures (ten cross flows), the longest runs of the reproductions.
    congested = vhsim.load(ROOT / "scenarios" / "limjang" / "3g-to-wlan-congested.toml")
    congested.set("duration", "50s").set("timeline.0.at", "10s").set("metrics.handover_window", "10s").run(seed=1)
    # Many users sharing one cell (vhsim bench --scale shape b).
    vhsim.loads(scenario_text("b", 1000)).run(seed=1, detail="summary")


if __name__ == "__main__":
    main()
