"""`simu mine export --format json|jsonl` follows the JSON Schema shipped with simu (mine-export.schema.json)."""

from __future__ import annotations

import copy
import json
from importlib import resources

import jsonschema
import pytest
from mine_helpers import history_repo, run_mine
from typer.testing import CliRunner

from simu.cli import app
from simu.mine.export import SCHEMA, SCHEMA_VERSION
from simu.report.jsonreport import schema

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    base = tmp_path_factory.mktemp("export")
    repo, _ = history_repo(base / "repo")
    path = base / "m.db"
    run_mine(path, [str(repo)])
    run_mine(path, [str(repo)], history=True, max_commits=5)
    return path


def _export(db, *args: str) -> str:
    res = runner.invoke(app, ["mine", "export", "--db", str(db), *args])
    assert res.exit_code == 0, res.output
    return res.stdout


def test_the_schema_ships_with_the_package():
    text = resources.files("simu.report").joinpath("schema", SCHEMA).read_text()
    doc = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["properties"]["schema_version"] == {"const": SCHEMA_VERSION}
    assert set(doc["$defs"]) == {"finding", "kernel", "change"}


@pytest.mark.parametrize(("what", "extra", "count"), [("findings", (), 5), ("kernels", ("--with-source",), 8),
                                                      ("changes", (), 3)])
def test_json_document_validates(db, what, extra, count):
    doc = json.loads(_export(db, "--format", "json", "--what", what, *extra))
    jsonschema.validate(doc, schema(SCHEMA))
    assert doc["what"] == what and doc["tool"]["name"] == "simu" and len(doc["rows"]) == count
    if what == "changes":
        assert sorted(r["class"] for r in doc["rows"]) == ["fixed", "unchanged", "unchanged"]


@pytest.mark.parametrize("what", ["findings", "kernels", "changes"])
def test_json_lines_rows_validate_against_the_defs(db, what):
    full = schema(SCHEMA)
    row_schema = {**full["$defs"][what.rstrip("s")], "$defs": full["$defs"]}
    lines = _export(db, "--format", "jsonl", "--what", what).splitlines()
    assert lines
    for line in lines:
        jsonschema.validate(json.loads(line), row_schema)


def test_the_schema_rejects_a_broken_document(db):
    doc = json.loads(_export(db, "--format", "json"))
    for mutate in (lambda d: d["rows"][0].pop("match_key"), lambda d: d["rows"][0].update(severity="fatal"),
                   lambda d: d.update(schema_version=2), lambda d: d["rows"][0].update(surprise=1)):
        bad = copy.deepcopy(doc)
        mutate(bad)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema(SCHEMA))
