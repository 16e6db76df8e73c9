"""examples/walkthrough.ipynb is kept without outputs in git, and runs from top to bottom
(issue #31 item 7): executed here with nbclient, so it never rots."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "walkthrough.ipynb"


def test_the_notebook_is_stored_without_outputs():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [cell for cell in nb["cells"] if cell["cell_type"] == "code"]
    assert code, "the walkthrough has code cells"
    for cell in code:
        assert cell.get("outputs") == [] and cell.get("execution_count") is None, \
            "strip the outputs before committing (Jupyter: Edit > Clear All Outputs)"


def test_the_notebook_runs(tmp_path):
    import nbclient  # test extras (pyproject.toml), with nbformat and ipykernel
    import nbformat
    # The notebook writes under <repository>/out/walkthrough, the repository being the first
    # folder up from where it runs that holds scenarios/: here a scratch folder that links them.
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios", target_is_directory=True)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert not errors
    images = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if "image/png" in out.get("data", {})]
    assert len(images) == 2, "the overview and the reproduced figure are shown"
    assert (tmp_path / "out" / "walkthrough" / "overview.png").is_file()
    assert (tmp_path / "out" / "walkthrough" / "reproduce" / "report.md").is_file()
    results = (tmp_path / "out" / "walkthrough" / "campaign" / "results.parquet")
    assert results.is_file()
