"""The committed JSON Schema file is generated from the same serde types the parser uses."""

import json
from pathlib import Path

import vhsim

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "scenario.schema.json"


def test_committed_schema_file_is_up_to_date():
    # Regenerate with: vhsim schema --out docs/scenario.schema.json
    assert json.loads(SCHEMA.read_text()) == json.loads(vhsim.json_schema())


def test_schema_lists_top_level_keys():
    props = json.loads(vhsim.json_schema())["properties"]
    for key in ("duration", "seed", "defaults", "nodes", "links", "flows", "timeline", "output", "metrics"):
        assert key in props
