"""The error catalogue, served: the path of a problem's `type` (`/problems/<code>`) is its page on this server."""
from __future__ import annotations

from html import escape

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView

from service.api.base import PUBLIC, Blueprint
from service.errors import Problem
from service.problems import CATALOGUE, ProblemType

blp = Blueprint("problems", __name__, url_prefix="/problems",
                description="The error catalogue: every problem code the service answers (docs/errors.md)")


class ProblemTypeSchema(ma.Schema):
    """One problem code: when it happens and what to do."""

    code = ma.fields.String(metadata={"description": "The problem document's `code`"})
    type = ma.fields.String(metadata={"description": "The problem document's `type`; its path is this page"})
    status = ma.fields.Integer(allow_none=True, metadata={
        "description": "The HTTP status it comes with (null: the status of the HTTP layer's refusal)"})
    title = ma.fields.String()
    when = ma.fields.String(metadata={"description": "What the request did to get it"})
    todo = ma.fields.String(metadata={"description": "What to do about it"})
    param = ma.fields.String(allow_none=True, metadata={"description": "The field it always names, if one"})
    param_doc = ma.fields.String(allow_none=True, metadata={"description": "What `param` names, if it varies"})


@blp.route("")
class ProblemTypes(MethodView):
    @blp.response(200, ProblemTypeSchema(many=True))
    @blp.problems({})
    @blp.doc(operationId="listProblemTypes", security=PUBLIC)
    def get(self):
        """Every problem code the service answers, by status."""
        return [entry.describe() for entry in CATALOGUE.values()]


@blp.route("/<string:code>")
class ProblemTypeByCode(MethodView):
    @blp.response(200, ProblemTypeSchema)
    @blp.problems({404: "No such problem code"})
    @blp.doc(operationId="getProblemType", security=PUBLIC)
    def get(self, code):
        """One problem code: the page a problem's `type` names.  A browser (Accept: text/html) gets it as HTML."""
        entry = CATALOGUE.get(code)
        if entry is None:
            raise Problem(404, "not-found", f"no problem code {code!r}; GET /problems lists them")
        if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":  # */*: JSON
            return Response(page(entry), mimetype="text/html")
        return entry.describe()


def page(entry: ProblemType) -> str:
    """The entry as a small HTML page, for whoever follows a `type` in a browser."""
    rows = [("code", entry.code), ("status", entry.status or "the HTTP layer's"), ("when", entry.when),
            ("what to do", entry.todo)] + ([("param", entry.param_text)] if entry.param_text else [])
    cells = "".join(f"<tr><th>{escape(name)}</th><td>{escape(str(value))}</td></tr>" for name, value in rows)
    return (f'<!doctype html><html lang="en"><meta charset="utf-8"><title>{escape(entry.title)}</title>'
            f"<h1>{escape(entry.title)}</h1><table>{cells}</table>"
            '<p><a href="/problems">Every problem code</a> (JSON)</p></html>')
