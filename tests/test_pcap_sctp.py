"""SCTP packet captures (docs/pcap.md, "SCTP"), read back with an independent reader (dpkt's
SCTP parser and its own CRC32c) and, where it is installed, with tshark.

The run is Kim & Koh's 3G -> WLAN -> 3G mSCTP handover (scenarios/kimkoh/3g-wlan-3g.toml): the
association sends on the 3G path, adds the WLAN address (ASCONF), switches its primary to WLAN
and back, and probes the new path (HEARTBEAT), so the captures of both paths hold DATA, SACKs
and control chunks. The expected frames of a link are derived from the packet table as in
tests/test_pcap.py (first hops: offers minus drops at the offer, serialized in FIFO order).
"""

from __future__ import annotations

import functools
import shutil
import struct
import subprocess
from decimal import Decimal
from pathlib import Path

import dpkt
import pytest

import vhsim
from conftest import REPO
from test_pcap import expected_first_hop, frame_problems, kept_offers, links_of, needs_tshark, table, tshark

KIMKOH = REPO / "scenarios" / "kimkoh" / "3g-wlan-3g.toml"
SENDER_PORT, RECEIVER_PORT = 50_000, 40_000  # flow 0's ports (docs/pcap.md)

# Chunk type (RFC 4960 §3.2, RFC 5061 §4.1) of each bit of the packet table's `flags` column
# for SCTP packets (vhsim-net SctpPacket::kind_flags).
CHUNK_OF_FLAG = {0x01: 0, 0x02: 3, 0x04: 4, 0x08: 5, 0x10: 0xC1, 0x20: 0x80}
DATA, SACK, ASCONF, ASCONF_ACK = 0, 3, 0xC1, 0x80
# The data sender (cn) and the receiver (mn) on the 3G and the WLAN path.
MERGECAP = shutil.which("mergecap")
FIRST_HOPS = ("wired1/forward", "wired2/forward", "umts/reverse", "wlan/reverse")


@functools.lru_cache(maxsize=None)
def read_sctp_capture(path: Path) -> list[dict]:
    """Every frame of an SCTP capture as dpkt parses it, with the checksum verified (read once
    per file: dpkt's CRC32c is pure Python)."""
    frames = []
    with open(path, "rb") as f:
        reader = dpkt.pcap.Reader(f)
        assert reader.datalink() in (dpkt.pcap.DLT_RAW, 101)
        for ts, buf in reader:
            ip = dpkt.ip.IP(buf)
            assert ip.p == dpkt.ip.IP_PROTO_SCTP and len(buf) == ip.len
            sctp = ip.data
            assert isinstance(sctp, dpkt.sctp.SCTP)
            raw = bytes(buf[ip.hl * 4 :])
            assert sctp.sum == dpkt.crc32c.cksum(raw[:8] + b"\0" * 4 + raw[12:]), "CRC32c"
            assert sum(len(c) for c in sctp.chunks) == len(raw) - 12, "the chunks fill the packet"
            frames.append(
                {
                    "time_ns": int(Decimal(ts) * 10**9),
                    "ip_len": ip.len,
                    "src": ip.src,
                    "dst": ip.dst,
                    "ports": (sctp.sport, sctp.dport),
                    "vtag": sctp.vtag,
                    "chunks": [(c.type, bytes(c.data)) for c in sctp.chunks],
                }
            )
    return frames


def first_u32(value: bytes) -> int:
    """TSN of a DATA chunk, cumulative TSN ack of a SACK, serial number of an ASCONF(-ACK)."""
    return struct.unpack("!I", value[:4])[0]


@pytest.fixture(scope="module")
def kimkoh(tmp_path_factory):
    sc = vhsim.load(KIMKOH).with_({"output.detail": "packets"})
    out = tmp_path_factory.mktemp("kimkoh")
    result = sc.run(pcap_dir=out, pcap=["all"])
    return sc, result, out


def test_sctp_captures_match_the_packet_table(kimkoh):
    sc, result, _ = kimkoh
    links, t = links_of(sc), table(result)
    files = {c.link: c.path for c in result.captures}
    addresses = [bytes(int(x) for x in a["ipv4"].split(".")) for a in sc.resolved()["addresses"]]
    seen_kinds = set()
    for name in FIRST_HOPS:
        frames, expected = read_sctp_capture(files[name]), expected_first_hop(t, links[name])
        assert len(frames) == len(expected) > 0, name
        # Both paths carry the flow's data and acknowledgements: the handover moved them.
        assert any(e["event"] in ("send", "retransmit", "ack_send") for e in expected), name
        from_sender = name.startswith("wired")
        for k, (f, e) in enumerate(zip(frames, expected)):
            where, row = f"{name} frame {k + 1}", e["row"]
            assert f["time_ns"] == e["time_ns"], where
            assert f["ip_len"] == e["size"], where
            assert (f["src"], f["dst"]) == (addresses[t["src"][row]], addresses[t["dst"][row]]), where
            ports = (SENDER_PORT, RECEIVER_PORT) if from_sender else (RECEIVER_PORT, SENDER_PORT)
            assert f["ports"] == ports, where
            assert f["vtag"] == ports[1] << 16 | ports[0], where  # the receiving endpoint's tag
            kinds = [kind for kind, _ in f["chunks"]]
            flags = int(t["flags"][row])
            assert set(kinds) == {c for bit, c in CHUNK_OF_FLAG.items() if flags & bit}, where
            seen_kinds.update(kinds)
            first = dict((kind, first_u32(value)) for kind, value in reversed(f["chunks"]))
            if e["event"] in ("send", "retransmit"):
                assert first[DATA] == e["seq"], where  # the first TSN the packet carries
            elif e["event"] == "ack_send":
                assert first[SACK] == e["seq"], where  # the cumulative TSN ack
            elif ASCONF in first or ASCONF_ACK in first:
                assert first.get(ASCONF, first.get(ASCONF_ACK)) == e["seq"], where  # the serial number
    assert seen_kinds == set(CHUNK_OF_FLAG.values()), "DATA, SACK, HEARTBEAT(-ACK), ASCONF(-ACK) all captured"
    for c in result.captures:
        assert c.packets == len(read_sctp_capture(c.path)), c.link


def test_sacks_with_gap_blocks_read_back(kimkoh):
    # The WLAN losses at 48-50 s leave holes: SACKs then carry Gap Ack Blocks, whose offsets
    # from the cumulative ack name TSNs received above it (RFC 4960 §3.3.4).
    _, result, _ = kimkoh
    path = next(c.path for c in result.captures if c.link == "wlan/reverse")
    with_gaps = 0
    for f in read_sctp_capture(path):
        for kind, value in f["chunks"]:
            if kind != SACK:
                continue
            cum, _, gaps, dups = struct.unpack("!IIHH", value[:12])
            assert len(value) == 12 + 4 * gaps + 4 * dups
            blocks = [struct.unpack("!HH", value[12 + 4 * i : 16 + 4 * i]) for i in range(gaps)]
            assert all(1 < start <= end for start, end in blocks), blocks
            assert all(b[0] > a[1] + 1 for a, b in zip(blocks, blocks[1:])), blocks
            with_gaps += gaps > 0
    assert with_gaps > 0


@needs_tshark
def test_tshark_reads_sctp_captures_cleanly(kimkoh):
    _, result, _ = kimkoh
    for c in result.captures:
        assert frame_problems(c.path) == (c.packets, []), c.link


@needs_tshark
def test_tshark_decodes_our_tsns_and_one_association(kimkoh):
    _, result, out = kimkoh
    t = table(result)
    for name, field, events in (
        ("wired2/forward", "sctp.data_tsn_raw", ("send", "retransmit")),
        ("wlan/reverse", "sctp.sack_cumulative_tsn_ack_raw", ("ack_send",)),
    ):
        path = next(c.path for c in result.captures if c.link == name)
        theirs = [int(x) for x in tshark(path, "-Y", field, "-T", "fields", "-e", field)]
        # A chunk the link's queue dropped at the offer never reached the wire (1 MiB buffers
        # overflow wired2's queue at the 3G -> WLAN switch).
        ours = [int(t["seq"][i]) for i in kept_offers(t, name, events)]
        assert theirs == ours and ours, name
    # Every packet of both paths and both directions, merged into one file, belongs to one
    # association in Wireshark's tracking (ports and verification tags, whatever the addresses).
    if MERGECAP is None:
        pytest.skip("mergecap (Wireshark's) is not installed; the association check is skipped")
    merged = out / "all.pcap.merged"
    names = ("umts-forward", "umts-reverse", "wlan-forward", "wlan-reverse")
    subprocess.run([MERGECAP, "-F", "pcap", "-w", str(merged), *(str(out / f"{n}.pcap") for n in names)], check=True)
    assoc = tshark(merged, "-o", "sctp.association_index:TRUE", "-T", "fields", "-e", "ip.src", "-e", "sctp.assoc_index")
    assert sorted(set(assoc)) == [f"{a}\t0" for a in ("10.0.0.1", "10.1.0.1", "10.2.0.1")]


@needs_tshark
def test_tshark_flags_a_broken_sctp_checksum(kimkoh, tmp_path):
    # The clean-read check can fail: corrupt one CRC32c and it is found.
    _, result, _ = kimkoh
    src = next(c.path for c in result.captures if c.link == "umts/reverse")
    raw = bytearray(src.read_bytes())
    raw[24 + 16 + 20 + 8] ^= 0xFF  # first record: a checksum byte of its SCTP common header
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(bytes(raw))
    _, problems = frame_problems(bad)
    assert len(problems) == 1 and problems[0].startswith("1\t"), problems
