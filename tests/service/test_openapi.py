"""openapi.yaml is generated from the code (`flask --app service.wsgi openapi write --format=yaml openapi.yaml`);
this fails when the committed file drifts from what the code would write."""
from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_committed_spec_matches_the_code_and_validates(app):
    generated = app.test_client().get("/openapi.json").json
    committed = yaml.safe_load(SPEC.read_text())
    validate(committed)
    assert committed == generated, "openapi.yaml is stale: regenerate it with " \
                                   "`flask --app service.wsgi openapi write --format=yaml openapi.yaml`"


def test_every_route_is_documented(app):
    committed = yaml.safe_load(SPEC.read_text())
    documented = set(committed["paths"])
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith(("static", "api-docs", "web.")):  # web.: the frontend's files, not API
            continue
        path = str(rule).replace("<string:", "{").replace("<int:", "{").replace(">", "}")
        assert path in documented, f"{path} is served but not in openapi.yaml"
