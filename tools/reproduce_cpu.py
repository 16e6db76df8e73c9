"""Measure one `vhsim reproduce PAPER` call: CPU seconds of the parent and of its workers, and
the workers' idle share (sampled state S = waiting for a task), per figure.

    .venv/bin/python tools/reproduce_cpu.py PAPER OUT [--quick] [--workers 2] [--figure ID] [--profile FILE]

Prints JSON: wall, CPU of the parent (RUSAGE_SELF) and of its joined workers (RUSAGE_CHILDREN), the
sum of the runs' own engine times, peak RSS, load average, verdict counts, and per figure the
parent's CPU and the workers' idle share (state S sampled every 20 ms in /proc). Used for
docs/performance.md "The reproductions' work around the engine".
"""
import argparse
import json
import os
import resource
import sys
import threading
import time


def proc_stat(pid):
    with open(f"/proc/{pid}/stat") as fh:
        data = fh.read()
    rest = data[data.rindex(")") + 2:].split()
    return rest[0], int(rest[11]) + int(rest[12])  # state, utime + stime (ticks)


def children(pid):
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out += [int(x) for x in fh.read().split()]
        except OSError:
            pass
    return out


class Sampler(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.stop = False
        self.figure = "(start)"
        self.samples = {}  # figure -> [running, sleeping]
        self.ticks = {}  # pid -> its latest utime + stime (ticks), to split the children's CPU
        self.plotter = set()  # the plotting process (not a worker: its waits are no idle share)
        self.lock = threading.Lock()

    def run(self):
        me = os.getpid()
        while not self.stop:
            for pid in children(me):
                try:
                    state, ticks = proc_stat(pid)
                except OSError:
                    continue
                with self.lock:
                    self.ticks[pid] = ticks
                    if pid in self.plotter:
                        continue
                    s = self.samples.setdefault(self.figure, [0, 0])
                    s[0 if state in "RD" else 1] += 1
            time.sleep(0.02)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paper")
    ap.add_argument("out")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--figure", default=None)
    ap.add_argument("--profile", default=None)
    args = ap.parse_args()
    from vhsim.cli import ARROW_ALLOCATOR_ENV, _return_large_blocks

    for k, v in ARROW_ALLOCATOR_ENV.items():
        os.environ.setdefault(k, v)
    from vhsim.campaign.reproduce import counts_line, reproduce

    import importlib

    reproduce_module = importlib.import_module("vhsim.campaign.reproduce")

    sampler = Sampler()
    plotter_pids = sampler.plotter
    enter = reproduce_module.Plotter.__enter__

    def entered(self):  # the plotting process's pid, to tell its CPU from the workers'
        out = enter(self)
        plotter_pids.update(getattr(self._executor, "_processes", None) or {})
        return out

    reproduce_module.Plotter.__enter__ = entered
    sampler.start()
    marks = []

    def on_figure(fig):
        marks.append((fig.id, time.perf_counter(), time.process_time()))
        with sampler.lock:
            sampler.figure = fig.id

    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    prof = None
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    outcome = reproduce(args.paper, args.figure, quick=args.quick, out=args.out, workers=args.workers,
                        progress=False, on_figure=on_figure, on_workers_started=_return_large_blocks)
    if prof:
        prof.disable()
        prof.dump_stats(args.profile)
    wall = time.perf_counter() - t0
    sampler.stop = True
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    marks.append(("(end)", time.perf_counter(), time.process_time()))
    figs = []
    engine_by_figure = {}
    for f in outcome.figures:
        with_timing = f.sweep.campaign.results(timing=True)
        engine_by_figure[f.figure.id] = float(with_timing["wall_s"].fillna(0).sum()) if "wall_s" in with_timing else 0.0
    for (fid, t, c), (_, t2, c2) in zip(marks, marks[1:]):
        run, sleep = sampler.samples.get(fid, [0, 0])
        figs.append({"figure": fid, "wall_s": round(t2 - t, 2), "parent_cpu_s": round(c2 - c, 2),
                     "engine_s": round(engine_by_figure.get(fid, 0.0), 2),
                     "worker_idle_share": round(sleep / max(1, run + sleep), 3)})
    tot_run = sum(v[0] for v in sampler.samples.values())
    tot_sleep = sum(v[1] for v in sampler.samples.values())
    hz = os.sysconf("SC_CLK_TCK")
    engine = sum(engine_by_figure.values())
    result = {
        "paper": args.paper, "quick": args.quick, "wall_s": round(wall, 1),
        "parent_cpu_s": round(me.ru_utime + me.ru_stime, 1),
        "parent_user_s": round(me.ru_utime, 1), "parent_sys_s": round(me.ru_stime, 1),
        "workers_cpu_s": round(kids.ru_utime + kids.ru_stime, 1),
        "workers_user_s": round(kids.ru_utime, 1), "workers_sys_s": round(kids.ru_stime, 1),
        "engine_wall_s_sum": round(engine, 1),
        # Sampled every 20 ms from /proc (the last ~20 ms of each process missed): the plotting
        # process apart from the workers.
        "plotter_cpu_s_sampled": round(sum(t for p, t in sampler.ticks.items() if p in plotter_pids) / hz, 1),
        "pool_workers_cpu_s_sampled": round(sum(t for p, t in sampler.ticks.items() if p not in plotter_pids) / hz, 1),
        "worker_idle_share": round(tot_sleep / max(1, tot_run + tot_sleep), 3),
        "parent_maxrss_mb": round(me.ru_maxrss / 1024), "workers_maxrss_mb": round(kids.ru_maxrss / 1024),
        "load_start": load0, "load_end": os.getloadavg(),
        "verdicts": counts_line(outcome.verdicts), "figures": figs,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
