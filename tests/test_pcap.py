"""Packet captures (docs/pcap.md), read back with an independent reader (dpkt) and, where it
is installed, with tshark.

The packet table has one row per event, not per link transmission, so the transmissions on a
link are derived from it: on a link a packet's endpoint sends on (its first hop), the rows
that offered packets to the link, minus those the queue dropped at once, start serializing in
FIFO order at max(offer time, end of the previous frame); on the last link before the
destination, a frame started serializing at its receive time minus the link's delay and its
serialization time (the links of these scenarios have no ARQ, reordering or rate changes).
"""

from __future__ import annotations

import shutil
import struct
from decimal import Decimal
import subprocess
from pathlib import Path

import dpkt
import numpy as np
import pytest

import vhsim
from vhsim import ScenarioError
from vhsim.pcap import read_index

from conftest import REPO, TINY

BULK = REPO / "benches" / "bulk-sack1.toml"
FIG8 = REPO / "scenarios" / "danielkojo" / "fig08-mbb.toml"
SEGMENT = 1460

OFFERED = ("send", "retransmit", "ack_send", "control_send")
DROPPED = ("drop", "ack_drop", "control_drop")
RECEIVED = ("receive", "ack_receive")


def serialization_ns(size: int, rate_bps: int) -> int:
    """vhsim-core Rate::serialization: ceil(8 * size * 1e9 / rate)."""
    return -(-8 * size * 1_000_000_000 // rate_bps)


def read_capture(path: Path) -> list[dict]:
    """Every frame of a pcap file as dpkt parses it."""
    frames = []
    with open(path, "rb") as f:
        reader = dpkt.pcap.Reader(f)
        assert reader.datalink() == dpkt.pcap.DLT_RAW or reader.datalink() == 101
        for ts, buf in reader:
            ip = dpkt.ip.IP(buf)
            tcp = ip.data
            assert isinstance(tcp, dpkt.tcp.TCP), "every frame of these runs is TCP"
            sack = []
            for kind, data in dpkt.tcp.parse_opts(tcp.opts):
                if kind == dpkt.tcp.TCP_OPT_SACK:
                    sack = [struct.unpack("!II", data[i : i + 8]) for i in range(0, len(data), 8)]
            # ns-2's 40-byte ACKs have no room for SACK blocks: the option adds 4 + 8 per block.
            sack_bytes = 4 + 8 * len(sack) if sack else 0
            frames.append(
                {
                    "size": ip.len - sack_bytes,
                    "time_ns": int(Decimal(ts) * 10**9),  # dpkt gives exact Decimal seconds for ns files
                    "ip_len": ip.len,
                    "frame_len": len(buf),
                    "seq": tcp.seq,
                    "ack": tcp.ack,
                    "flags": tcp.flags,
                    "payload": len(tcp.data),
                    "sack": sack,
                }
            )
    return frames


def table(result) -> dict[str, np.ndarray]:
    pk = result.trace("packets")
    return {
        "time_ns": np.rint(pk["time_s"].to_numpy() * 1e9).astype(np.int64),
        "event": pk["event"].astype(str).to_numpy(),
        "link": pk["link"].astype(str).to_numpy(),
        "cause": pk["cause"].astype(str).to_numpy(),
        "seq": pk["seq"].to_numpy(),
        "size": pk["size"].to_numpy(),
        "src": pk["src"].to_numpy(),
        "dst": pk["dst"].to_numpy(),
        "flags": pk["flags"].to_numpy(),
    }


def kept_offers(t: dict, link_name: str, offered: tuple[str, ...] = OFFERED) -> list[int]:
    """Rows that offered a packet to a link whose queue took it (not dropped at the offer)."""
    rows = []
    n = len(t["event"])
    for i in range(n):
        if t["event"][i] not in offered or t["link"][i] != link_name:
            continue
        j = i + 1
        dropped_at_offer = (
            j < n
            and t["link"][j] == link_name
            and t["event"][j] in DROPPED
            and t["time_ns"][j] == t["time_ns"][i]
            and t["cause"][j] in ("queue_overflow", "link_down")
        )
        if not dropped_at_offer:
            rows.append(i)
    return rows


def expected_first_hop(t: dict, link: dict) -> list[dict]:
    """Frames a sender-side link serializes, from the rows that offered packets to it."""
    rows = kept_offers(t, link["name"])
    out, free_at = [], 0
    for i in rows:
        start = max(int(t["time_ns"][i]), free_at)
        free_at = start + serialization_ns(int(t["size"][i]), link["rate"])
        out.append(
            {"time_ns": start, "event": t["event"][i], "seq": int(t["seq"][i]), "size": int(t["size"][i]), "row": i}
        )
    return out


def last_hop_frames(frames: list[dict], expected: list[dict], link: dict, duration_ns: int) -> list[dict]:
    """The frames of a last-hop capture that reached the destination before the end of the
    run (the others were still on the link when it ended, so no row received them)."""
    arrives = [f["time_ns"] + serialization_ns(f["size"], link["rate"]) + link["delay"] for f in frames]
    assert all(a > duration_ns for a in arrives[len(expected) :])
    return frames[: len(expected)]


def expected_last_hop(t: dict, link: dict, events: tuple[str, ...]) -> list[dict]:
    """Frames of the last link before the destination, from the rows that received them."""
    out = []
    for i in np.flatnonzero(np.isin(t["event"], events)):
        size = int(t["size"][i])
        start = int(t["time_ns"][i]) - link["delay"] - serialization_ns(size, link["rate"])
        out.append({"time_ns": start, "event": t["event"][i], "seq": int(t["seq"][i]), "size": size})
    out.sort(key=lambda r: r["time_ns"])  # receive rows are in arrival order, as is the link
    return out


def assert_frames_match(frames: list[dict], expected: list[dict]) -> None:
    assert len(frames) == len(expected) > 0
    for k, (f, e) in enumerate(zip(frames, expected)):
        where = f"frame {k + 1}"
        assert f["time_ns"] == e["time_ns"], where
        assert f["flags"] & dpkt.tcp.TH_ACK, where
        if e["event"] in ("send", "retransmit", "receive"):
            assert (f["ip_len"], f["payload"]) == (e["size"], SEGMENT), where
            assert f["seq"] == 1 + e["seq"] * SEGMENT, where
            assert f["ack"] == 1, where
        else:
            assert (f["size"], f["payload"]) == (e["size"], 0), where
            assert f["ack"] == 1 + e["seq"] * SEGMENT, where
            assert f["seq"] == 1, where
            for left, right in f["sack"]:
                assert f["ack"] < left < right and (left - 1) % SEGMENT == (right - 1) % SEGMENT == 0, where
        assert f["frame_len"] == f["ip_len"], where


def links_of(sc) -> dict[str, dict]:
    return {link["name"]: link for link in sc.resolved()["links"]}


@pytest.fixture(scope="module")
def bulk(tmp_path_factory):
    sc = vhsim.load(BULK).with_({"duration": "20s", "output.detail": "packets"})
    out = tmp_path_factory.mktemp("bulk")
    result = sc.run(pcap_dir=out, pcap=["all"])
    return sc, result, out


@pytest.fixture(scope="module")
def fig8(tmp_path_factory):
    sc = vhsim.load(FIG8)
    out = tmp_path_factory.mktemp("fig8")
    result = sc.run(pcap_dir=out, pcap=["all"])
    return sc, result, out


def test_bulk_captures_match_the_packet_table(bulk):
    sc, result, out = bulk
    links, t = links_of(sc), table(result)
    assert {c.link for c in result.captures} == set(links)
    files = {c.link: c.path for c in result.captures}
    assert files["access/forward"] == out / "access-forward.pcap"
    # Data leave cn on wired/forward; ACKs leave mn on access/reverse; data reach mn from
    # access/forward, whose queue drops some (they never appear there).
    assert result.links.loc["access/forward", "drops_queue_overflow"] > 0
    assert_frames_match(read_capture(files["wired/forward"]), expected_first_hop(t, links["wired/forward"]))
    assert_frames_match(read_capture(files["access/reverse"]), expected_first_hop(t, links["access/reverse"]))
    expected = expected_last_hop(t, links["access/forward"], ("receive",))
    frames = last_hop_frames(read_capture(files["access/forward"]), expected, links["access/forward"], 20 * 10**9)
    assert_frames_match(frames, expected)
    for c in result.captures:
        assert c.packets == len(read_capture(c.path))


def test_fig8_captures_match_the_packet_table(fig8):
    sc, result, _ = fig8
    links, t = links_of(sc), table(result)
    files = {c.link: c.path for c in result.captures}
    data = read_capture(files["cn_r/forward"])
    assert_frames_match(data, expected_first_hop(t, links["cn_r/forward"]))
    expected = expected_last_hop(t, links["cn_r/reverse"], ("ack_receive",))
    frames = last_hop_frames(read_capture(files["cn_r/reverse"]), expected, links["cn_r/reverse"], 20 * 10**9)
    assert_frames_match(frames, expected)
    # Every frame carrying bytes sent before is a retransmission, and there are as many as the
    # sender counted.
    seen, repeats = set(), 0
    for f in data:
        repeats += f["seq"] in seen
        seen.add(f["seq"])
    assert repeats == result.flows.loc["bulk", "retransmissions"] > 0
    # After the handover at 8.2 s the data take the slow access link.
    slow = read_capture(files["slow/forward"])
    assert slow and min(f["time_ns"] for f in slow) >= 8_200_000_000


def test_runs_without_a_folder_or_without_captures_write_nothing(tmp_path):
    sc = vhsim.loads(TINY).set("output.pcap", '["access"]')
    assert sc.run().captures == []
    plain = vhsim.loads(TINY).run(pcap_dir=tmp_path)
    assert plain.captures == [] and list(tmp_path.iterdir()) == []


def test_the_scenario_key_and_the_pcap_argument_add_up(tmp_path):
    sc = vhsim.loads(TINY).set("output.pcap", '["access/forward"]')
    result = sc.run(pcap_dir=tmp_path, pcap=["wired", "access/forward"])
    assert [c.link for c in result.captures] == ["wired/forward", "wired/reverse", "access/forward"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "access-forward.pcap",
        "wired-forward.pcap",
        "wired-reverse.pcap",
    ]


def test_a_snap_length_keeps_headers_and_the_original_length(tmp_path):
    sc = vhsim.loads(TINY).with_({"output.pcap": '["access/forward"]', "output.pcap_snaplen": "96B"})
    (cap,) = sc.run(pcap_dir=tmp_path).captures
    raw = cap.path.read_bytes()
    magic, _, _, _, _, snaplen, linktype = struct.unpack("<IHHiIII", raw[:24])
    assert (magic, snaplen, linktype) == (0xA1B23C4D, 96, 101)
    at, records = 24, 0
    while at < len(raw):
        _, _, incl, orig = struct.unpack("<IIII", raw[at : at + 16])
        ip_len = struct.unpack("!H", raw[at + 16 + 2 : at + 16 + 4])[0]
        assert incl == min(orig, 96) and orig == ip_len
        at += 16 + incl
        records += 1
    assert records == cap.packets > 0


def test_bad_capture_points_name_the_key(tmp_path):
    with pytest.raises(ScenarioError, match=r"output\.pcap\[1\]: unknown link direction `nope`"):
        vhsim.loads(TINY).set("output.pcap", '["access", "nope"]').validate()
    with pytest.raises(ScenarioError, match=r"pcap: link `access` has no direction `up`"):
        vhsim.loads(TINY).run(pcap_dir=tmp_path, pcap=["access/up"])


def test_an_unwritable_folder_names_the_key(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    sc = vhsim.loads(TINY).set("output.pcap", '["access/forward"]')
    with pytest.raises(OSError, match=r"output\.pcap\[0\]: cannot write the capture of `access/forward` to .*file"):
        sc.run(pcap_dir=blocker / "out")


def test_cli_pcap_option(tmp_path, tiny_path, vhsim_proc):
    out = tmp_path / "run"
    proc = vhsim_proc("run", tiny_path, "--out", out, "--pcap", "access/forward,wired/reverse")
    assert proc.returncode == 0, proc.stderr
    assert "access-forward.pcap (" in proc.stdout and "wired-reverse.pcap (" in proc.stdout
    saved = vhsim.read_result(out)
    assert [c.link for c in saved.captures] == ["wired/reverse", "access/forward"]
    assert all(c.path.is_file() and c.packets > 0 for c in saved.captures)
    # A later run into the same folder without captures leaves none behind.
    proc = vhsim_proc("run", tiny_path, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert not list(out.glob("*.pcap")) and read_index(out) == []


def test_cli_bad_pcap_values(tmp_path, tiny_path, vhsim_proc):
    proc = vhsim_proc("run", tiny_path, "--out", tmp_path / "x", "--pcap", "access/sideways")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --pcap: link `access` has no direction `sideways`"), proc.stderr
    proc = vhsim_proc("run", tiny_path, "--out", tmp_path / "x", "--pcap", "nope")
    assert proc.returncode == 2 and "error: --pcap: unknown link direction `nope`" in proc.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = vhsim_proc("run", tiny_path, "--out", blocker / "out", "--pcap", "access")
    # An unusable output folder is bad input (exit 2), refused before anything is written.
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and "Not a directory" in proc.stderr, proc.stderr


# ------------------------------------------------------------------------------------- tshark
TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(
    TSHARK is None, reason="tshark is not installed (apt-get install tshark); Wireshark checks skipped"
)
CHECKSUMS = ["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
CHECKSUMS += ["-o", "sctp.checksum:CRC-32C"]
# One line per frame: malformed marker, expert info groups, checksum statuses.
FIELDS = ["frame.number", "_ws.malformed", "_ws.expert.group"] + [f"{p}.checksum.status" for p in ("ip", "tcp", "udp", "sctp")]
EXPERT_CHECKSUM, EXPERT_MALFORMED = 0x01000000, 0x07000000  # epan/proto.h PI_CHECKSUM, PI_MALFORMED
CHECKSUM_BAD = "0"  # epan/proto.h PROTO_CHECKSUM_E_BAD


def frame_problems(path: Path) -> tuple[int, list[str]]:
    """Frames tshark reads in `path`, and those with a malformed part or a bad checksum."""
    args = ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=;"]
    lines = tshark(path, *CHECKSUMS, *args, *(a for f in FIELDS for a in ("-e", f)))
    bad = []
    for line in lines:
        _, malformed, groups, *statuses = (line.split("\t") + [""] * len(FIELDS))[: len(FIELDS)]
        expert = {int(g) for g in groups.split(";") if g}
        if malformed or expert & {EXPERT_CHECKSUM, EXPERT_MALFORMED} or any(
            CHECKSUM_BAD in s.split(";") for s in statuses
        ):
            bad.append(line)
    return len(lines), bad


RETRANSMITTED = (
    "tcp.analysis.retransmission || tcp.analysis.fast_retransmission || "
    "tcp.analysis.spurious_retransmission || tcp.analysis.out_of_order"
)


# TINY plus a datagram flow (written as UDP) the other way.
TINY_WITH_DATAGRAMS = TINY.replace(
    "[output]",
    '[flows.udp]\nfrom = "mn"\nto = "cn"\nprotocol = "datagram"\napp = { kind = "cbr", rate = "200kbps" }\n\n[output]',
)


def tshark(path: Path, *args: str) -> list[str]:
    proc = subprocess.run([TSHARK, "-n", "-r", str(path), *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    noise = [line for line in proc.stderr.splitlines() if line.strip() and "Running as user" not in line]
    assert noise == [], noise
    return [line for line in proc.stdout.splitlines() if line.strip()]


@needs_tshark
def test_tshark_reads_every_capture_cleanly(bulk, fig8, tmp_path):
    udp_run = vhsim.loads(TINY_WITH_DATAGRAMS).run(pcap_dir=tmp_path, pcap=["all"])
    captures = bulk[1].captures + fig8[1].captures + udp_run.captures
    assert any(c.packets for c in udp_run.captures)
    for c in captures:
        assert frame_problems(c.path) == (c.packets, []), c.link


@needs_tshark
def test_tshark_flags_a_broken_checksum(fig8, tmp_path):
    # The check above can fail: corrupt one TCP checksum and it is found.
    src = next(c.path for c in fig8[1].captures if c.link == "cn_r/reverse")
    raw = bytearray(src.read_bytes())
    raw[24 + 16 + 20 + 16] ^= 0xFF  # first record: TCP checksum byte
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(bytes(raw))
    frames, problems = frame_problems(bad)
    assert len(problems) == 1 and problems[0].startswith("1\t"), problems


@needs_tshark
def test_tshark_counts_the_retransmissions_we_count(fig8):
    # Wireshark labels a resent segment a retransmission, a fast or spurious one, or (when it
    # follows the highest segment within 3 ms; it cannot know the RTT without a handshake) an
    # out-of-order segment; at the sender's first link every one of them is a retransmission.
    _, result, _ = fig8
    data = next(c.path for c in result.captures if c.link == "cn_r/forward")
    ours = int(result.flows.loc["bulk", "retransmissions"])
    assert ours > 0 and result.flows.loc["bulk", "drops_queue_overflow"] > 0
    assert len(tshark(data, "-Y", RETRANSMITTED)) == ours
