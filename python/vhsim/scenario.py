"""Scenarios: a TOML text plus an ordered list of dotted-key overrides.

A :class:`Scenario` never changes after it is made; :meth:`Scenario.set` and
:meth:`Scenario.with_` return a new one with the override appended.  The Rust
core does all parsing and validation (``vhsim._native.resolve``), so the rules
live in one place and Python only carries text around.
"""

from __future__ import annotations

import contextlib
import json
import operator
import os
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from . import _native
from ._native import ScenarioError
from . import atomic
from .errors import MissingPathError, PathError, path_error, shown

if TYPE_CHECKING:  # pragma: no cover
    from .control import Progress
    from .result import Result

__all__ = ["Scenario", "load", "loads", "format_value", "read_scenario_text"]


#: Largest scenario file read (bytes): anything bigger is not a scenario (e.g. /dev/zero).
MAX_FILE_BYTES = 64 * 1024 * 1024

#: Seeds are unsigned 64-bit integers in the core.
MAX_SEED = 2**64 - 1


def _text(value: str, what: str) -> str:
    """``value`` if it can cross into the core as UTF-8; else ScenarioError naming ``what``."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = value[err.start : err.end]
        raise ScenarioError(
            f"{what}: not valid text: {bad!r} at position {err.start} is a lone surrogate (in a command-line "
            "argument: a byte that is not UTF-8), which cannot be encoded as UTF-8"
        ) from None
    return value


def format_value(value: Any) -> str:
    """Turn a Python value into the string form an override expects.

    Booleans become ``"true"``/``"false"`` (TOML spelling), strings pass
    through unchanged, everything else goes through ``str()``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def _pairs(overrides: Any, what: str = "overrides") -> tuple[tuple[str, str], ...]:
    """Overrides as (key, value) string pairs, from a mapping or an iterable of pairs."""
    if overrides is None:
        return ()
    if isinstance(overrides, Mapping):
        items = list(overrides.items())
    elif isinstance(overrides, (str, bytes)) or not isinstance(overrides, Iterable):
        raise ScenarioError(f"{what}: expected (key, value) pairs or a mapping, got {shown(overrides)}")
    else:
        items = list(overrides)
    out = []
    for item in items:
        if isinstance(item, (str, bytes)) or not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ScenarioError(f"{what}: each override must be a (key, value) pair, got {shown(item)}")
        key, value = item
        if not isinstance(key, str) or not key.strip():
            raise ScenarioError(f"{what}: an override key must be a non-empty string such as "
                                f"'links.access.rate', got {shown(key)}")
        key = _text(key, "override key")
        out.append((key, _text(format_value(value), key)))
    return tuple(out)


def _seed(seed: Any) -> int | None:
    """``seed`` as an int in 0..2^64-1 (``None`` stays ``None``); ScenarioError otherwise."""
    if seed is None:
        return None
    if not isinstance(seed, bool):
        try:
            value = operator.index(seed)  # int, numpy integers; not float, str, bytes
        except TypeError:
            value = None
        if value is not None and 0 <= value <= MAX_SEED:
            return value
    raise ScenarioError(f"seed: must be an integer from 0 to 2^64-1, got {shown(seed)}")


def _detail(detail: Any) -> str | None:
    if detail is None or (isinstance(detail, str) and detail in DETAILS):
        return detail
    raise ScenarioError(f"detail: must be one of {', '.join(DETAILS)}, got {shown(detail)}")


def _names(value: Any, what: str) -> list[str]:
    """A name or an iterable of names (flows, links, events) as a list of strings."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, Iterable) or isinstance(items, (bytes, Mapping)):
        raise ScenarioError(f"{what}: expected a name or a list of names, got {shown(value)}")
    out = []
    for item in items:
        if not isinstance(item, str):
            raise ScenarioError(f"{what}: expected names (strings), got {shown(item)}")
        out.append(_text(item, what))
    return out


def _window(value: Any) -> str | None:
    """``"295s..320s"``, or a ``(start, end)`` pair of durations (either may be None)."""
    if value is None or isinstance(value, str):
        return None if value is None else _text(value, "trace_window")
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(v is None or isinstance(v, str) for v in value):
        return _text(f"{value[0] or ''}..{value[1] or ''}", "trace_window")
    raise ScenarioError(f"trace_window: expected \"START..END\" or a (start, end) pair of durations such as "
                        f"(\"295s\", \"320s\"), got {shown(value)}")


def _callable(value: Any, what: str) -> Any:
    if value is None or callable(value):
        return value
    raise ScenarioError(f"{what}: expected a function called with a vhsim.control.Progress, or None, got {shown(value)}")


def _control(value: Any) -> Any:
    if value is None or isinstance(value, _native.RunControl):
        return value
    raise ScenarioError(f"control: expected a vhsim.control.RunControl (or None), got {shown(value)}")


def _folder(value: Any, what: str, required: bool = False) -> str | None:
    """A folder name (str, path or bytes) as text (``None`` stays ``None`` unless ``required``);
    ScenarioError naming ``what`` otherwise."""
    if value is None and not required:
        return None
    if isinstance(value, (str, bytes, os.PathLike)):
        try:
            name = os.fsdecode(value)
        except (TypeError, UnicodeDecodeError):
            name = None
        if name and "\0" not in name:
            return _text(name, what)
    raise ScenarioError(f"{what}: expected a folder name, got {shown(value)}")


_RUN_ARGUMENTS = ("trace_window:", "trace_flows:", "trace_links:", "trace_events:")


def _with_origin(err: ScenarioError, origin: str | None) -> ScenarioError:
    """Return a ScenarioError whose message starts with ``origin`` (a file path)."""
    if origin is None:
        return err
    msg = str(err)
    if msg.startswith(f"{origin}:") or msg.startswith(_RUN_ARGUMENTS):
        return err  # already prefixed, or about an argument of run(), not the file
    new = ScenarioError(f"{origin}: {msg}")
    new.__cause__ = err
    return new


class Scenario:
    """A scenario ready to validate or run.

    Build one with :func:`load` or :func:`loads`.  Overrides use dotted keys
    of the TOML file, e.g. ``("links.access.rate", "2Mbps")``.

    >>> sc = vhsim.load("scenarios/examples/bulk-3g.toml")      # doctest: +SKIP
    >>> sc.set("flows.bulk.scheme", "newreno").run(seed=2)        # doctest: +SKIP
    """

    __slots__ = ("_text", "_overrides", "_path")

    def __init__(
        self,
        text: str,
        overrides: Iterable[tuple[str, str]] = (),
        path: str | os.PathLike[str] | None = None,
    ) -> None:
        if not isinstance(text, str):
            raise ScenarioError(f"scenario text: expected a string (TOML), got {shown(text)}")
        self._text = _text(text, "scenario text")
        self._overrides = _pairs(overrides)
        self._path = None if path is None else os.fspath(path)

    # -- read-only views -------------------------------------------------
    @property
    def text(self) -> str:
        """The TOML text the scenario was made from (without overrides)."""
        return self._text

    @property
    def overrides(self) -> tuple[tuple[str, str], ...]:
        """The overrides applied on top of :attr:`text`, in order."""
        return self._overrides

    @property
    def path(self) -> str | None:
        """The file the scenario was loaded from, if any."""
        return self._path

    @property
    def name(self) -> str:
        """The scenario's ``name`` after overrides."""
        return str(self.resolved().get("name", ""))

    # -- deriving new scenarios ------------------------------------------
    def set(self, key: str, value: Any) -> "Scenario":
        """Return a copy with ``key = value`` appended to the overrides."""
        return Scenario(self._text, self._overrides + _pairs([(key, value)]), self._path)

    def with_(self, mapping: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None, /,
              **kw: Any) -> "Scenario":
        """Return a copy with several overrides appended.

        Keyword names use ``__`` in place of dots, because dots are not
        allowed in Python names; a mapping or a list of pairs may use dotted
        keys directly::

            sc.with_(links__access__rate="2Mbps", duration="30s")
            sc.with_({"flows.bulk.scheme": "newreno"})
            sc.with_([("timeline[0].at", "5s"), ("duration", "20s")])
        """
        extra = _pairs(mapping) + _pairs([(k.replace("__", "."), v) for k, v in kw.items()])
        return Scenario(self._text, self._overrides + extra, self._path)

    # -- using it ----------------------------------------------------------
    def resolved_json(self) -> str:
        """Canonical JSON of the fully resolved scenario (raises ScenarioError)."""
        try:
            return _native.resolve(self._text, list(self._overrides))
        except ScenarioError as err:
            raise _with_origin(err, self._path) from None

    def resolved(self) -> dict:
        """The fully resolved scenario as a dict (raises ScenarioError)."""
        return json.loads(self.resolved_json())

    def validate(self) -> "Scenario":
        """Check the scenario with its overrides; return ``self`` if valid."""
        self.resolved_json()
        return self

    def run(
        self,
        seed: int | None = None,
        detail: str | None = None,
        *,
        trace_window: str | tuple[str | None, str | None] | None = None,
        trace_flows: str | Iterable[str] | None = None,
        trace_links: str | Iterable[str] | None = None,
        trace_events: str | Iterable[str] | None = None,
        pcap_dir: str | os.PathLike[str] | None = None,
        pcap: str | Iterable[str] | None = (),
        pcap_key: str = "pcap",
        progress: Callable[[Progress], None] | None = None,
        control: Any = None,
    ) -> "Result":
        """Run one simulation and return its :class:`vhsim.Result`.

        ``seed`` replaces the scenario's seed (an integer from 0 to 2^64-1);
        ``detail`` is one of ``"summary"``, ``"timeseries"``, ``"packets"``
        (``None`` keeps the scenario's ``output.detail``).

        Trace filters record only some rows (docs/cli.md, "Trace filters"):
        ``trace_window="295s..320s"`` (or ``("295s", None)``), ``trace_flows``,
        ``trace_links`` (a link name selects both directions, ``"access/forward"``
        one) and ``trace_events`` (packet event kinds such as ``"retransmit"``).

        ``progress`` is called about every 0.1 s with a :class:`vhsim.control.Progress`.
        Ctrl-C stops the run within a fraction of a second (KeyboardInterrupt);
        ``control`` (a ``vhsim._native.RunControl``) lets another thread stop it.
        With ``pcap_dir``, packet captures are written there: those of the
        scenario's ``output.pcap`` plus the link directions named in ``pcap``
        (docs/pcap.md; errors about them name ``pcap_key``); without it, none.
        They are written into a hidden folder there while the run goes on and
        moved into ``pcap_dir`` when it ends: an interrupted or failed run leaves
        no capture file behind.

        Bad arguments raise :class:`ScenarioError` naming the argument; a folder the
        captures cannot be written to a :class:`vhsim.errors.PathError` (a
        ScenarioError and an OSError); a failed run :class:`SimulationError`.
        """
        from .control import run_native
        from .result import TABLE_LIMIT, Result

        if not isinstance(pcap_key, str) or not pcap_key:
            raise ScenarioError(f"pcap_key: expected the name errors about captures give, got {shown(pcap_key)}")
        kwargs = dict(
            toml_text=self._text,
            overrides=list(self._overrides),
            seed=_seed(seed),
            detail=_detail(detail),
            trace_window=_window(trace_window),
            trace_flows=_names(trace_flows, "trace_flows"),
            trace_links=_names(trace_links, "trace_links"),
            trace_events=_names(trace_events, "trace_events"),
            pcap=_names(pcap, pcap_key),
            pcap_key=pcap_key,
            tables_above=TABLE_LIMIT,
        )
        progress, control, folder = _callable(progress, "progress"), _control(control), _folder(pcap_dir, "pcap_dir")
        with _capture_staging(folder, pcap_key) as staging:
            try:
                raw = run_native({**kwargs, "pcap_dir": staging}, on_progress=progress, control=control)
            except ScenarioError as err:
                if str(err).startswith(f"{pcap_key}:"):
                    raise  # about the `pcap` argument, not the file
                raise _with_origin(err, self._path) from None
            except OSError as err:  # the captures could not be written (the core names the key)
                raise PathError(str(err).replace(os.fspath(staging or ""), folder or "")) from None
            result = Result.from_native(raw, scenario=self)
            if staging is not None:
                result.captures = _publish_captures(result.captures, staging, folder)
        return result

    def branch(self, variants: Iterable["Scenario | Mapping[str, Any] | Iterable[tuple[str, Any]]"], *,
               seed: Any = None, detail: Any = None) -> list["Result"]:
        """Run several variants of this scenario that differ only in the time of one timeline
        entry (and possibly the duration) as branches of one run: their common past is
        simulated once, each branch continues from the instant it differs (issue #16;
        ``vhsim_sim::branch``). The results are exactly those of independent runs, in order.

        Each variant is a Scenario made from this one (``sc.set("timeline[0].at", "5s")``) or
        the extra overrides that make it::

            runs = sc.branch([{"timeline[0].at": f"{t}s"} for t in (5, 6, 7)], seed=3)

        Raises :class:`ScenarioError` for an invalid variant, and for variants that differ in
        more than that ("not branchable: ...").
        """
        from . import _native
        from .result import TABLE_LIMIT, Result

        if isinstance(variants, (str, bytes, Mapping)) or not isinstance(variants, Iterable):
            raise ScenarioError(f"branch: expected a list of variants (Scenarios or overrides), got {shown(variants)}")
        lists = []
        for v in variants:
            if isinstance(v, Scenario):
                if v._text != self._text or v._overrides[: len(self._overrides)] != self._overrides:
                    raise ScenarioError("branch: a variant must be made from this scenario (set/with_)")
                lists.append(list(v._overrides))
            else:
                lists.append(list(self._overrides + _pairs(v, "branch")))
        if not lists:
            return []
        try:
            raws = _native.run_branches(self._text, lists, _seed(seed), _detail(detail), tables_above=TABLE_LIMIT)
        except ScenarioError as err:
            raise _with_origin(err, self._path) from None
        except ValueError as err:  # not branchable: the variants differ in more than one instant
            raise ScenarioError(f"branch: {err}") from None
        return [Result.from_native(raw, scenario=self) for raw in raws]  # variants differ only in time

    # -- dunder ------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return (self._text, self._overrides) == (other._text, other._overrides)

    def __hash__(self) -> int:
        return hash((self._text, self._overrides))

    def __repr__(self) -> str:
        origin = repr(self._path) if self._path else "<string>"
        if self._overrides:
            ov = ", ".join(f"{k}={v}" for k, v in self._overrides)
            return f"Scenario({origin}, overrides=[{ov}])"
        return f"Scenario({origin})"


DETAILS = ("summary", "timeseries", "packets")


@contextlib.contextmanager
def _capture_staging(folder: str | None, key: str) -> Iterator[str | None]:
    """A hidden folder in ``folder`` for the core to write captures into while it runs (it
    creates it only if the run captures something); removed when the run fails or is
    interrupted, so no partial capture is left under a final name (issue #27)."""
    if folder is None:
        yield None
        return
    staging = atomic.temporary_name(os.path.join(folder, "pcap"))
    try:
        yield os.fspath(staging)
    finally:
        atomic.remove(staging)


def _publish_captures(captures: list, staging: str, folder: str) -> list:
    """Move the finished capture files from ``staging`` into ``folder`` (renames: atomic)."""
    from .pcap import Capture

    out = []
    for c in captures:
        final = os.path.join(folder, c.path.name)
        try:
            os.replace(c.path, final)
        except OSError as err:
            raise path_error(err, "pcap_dir", final) from None
        out.append(Capture(c.link, type(c.path)(final), c.packets))
    return out


def loads(text: str, overrides: Iterable[tuple[str, str]] | Mapping[str, Any] = ()) -> Scenario:
    """Make a :class:`Scenario` from TOML text and validate it at once."""
    return Scenario(text, overrides).validate()


def read_scenario_text(path: str | os.PathLike[str]) -> str:
    """The text of a scenario file.

    A file that is not UTF-8 text (or is larger than 64 MB) raises :class:`ScenarioError`
    naming the file; a missing file :class:`vhsim.errors.MissingPathError` (a ScenarioError
    that is also a FileNotFoundError); a path that cannot be read (a folder, a symlink loop,
    no permission) a :class:`vhsim.errors.PathError` (also an OSError), with a one-line message.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ScenarioError(f"scenario path: expected a file name, got {shown(path)}")
    name = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise MissingPathError(f"scenario file not found: {name}") from None
    except IsADirectoryError:
        raise PathError(f"scenario path is a directory, not a file: {name}") from None
    except OSError as err:
        raise PathError(f"cannot read scenario file {name}: {err.strerror or err}") from None
    except ValueError as err:  # e.g. a NUL character in the path
        raise ScenarioError(f"scenario path: {shown(name)} is not a usable file name ({err})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(f"{name}: larger than {MAX_FILE_BYTES // 2**20} MB; not a scenario file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ScenarioError(
            f"{name}: not a UTF-8 text file (byte 0x{data[err.start]:02x} at offset {err.start}, line {line}); "
            "a scenario is a TOML text file"
        ) from None


def load(path: str | os.PathLike[str], overrides: Iterable[tuple[str, str]] | Mapping[str, Any] = ()) -> Scenario:
    """Read a scenario TOML file and validate it at once.

    Errors in the file (including a file that is not UTF-8 text) raise
    :class:`vhsim.ScenarioError` with the path prefixed; a missing file raises
    :class:`vhsim.errors.MissingPathError` (also a FileNotFoundError), another unreadable path a
    :class:`vhsim.errors.PathError` (also an OSError).
    """
    text = read_scenario_text(path)
    return Scenario(text, overrides, os.fspath(path)).validate()
