"""A table's life (issue 36 item 1): a player resigns, aborts, leaves or asks for a rematch, with their seat's
token.  Each is a table command (events/table.py decides it, SEAT_ACTIONS), recorded in the game's history,
narrated, and re-decided when the history is verified."""
from __future__ import annotations

from flask.views import MethodView

from events.table import NotNow
from service.api.base import Blueprint, load_for_seat
from service.errors import Problem
from service.presenters import outcome
from service.schemas import SeatActionSchema
from service.wiring import engine

blp = Blueprint("table_life", __name__, url_prefix="/v1/games",
                description="A table's life: resign, abort, leave, rematch")

ACTIONS = {
    "resign": ("Resign", "resignSeat",
               "Resign an active game.  Your seat goes to a bot (the clock's bot level, else the ruleset's first) "
               "so the others play on; when only one seat is left that has not resigned, the game ends and it "
               "wins.  Your token still reads the game."),
    "abort": ("Abort", "abortGame",
              "End a game that has not started (seats open, or the contribution window open): no result, nobody "
              "wins.  Once it has started, resign instead."),
    "leave": ("Leave", "leaveSeat",
              "Give up your seat at a table that has not started: it is open again for anyone to claim, and your "
              "token stops working for this game."),
    "rematch": ("Rematch", "askRematch",
                "Ask to play this finished game again.  When every player who sat at it has asked (human seats, "
                "and seats a bot took over from a player), the new game is created: same ruleset (its latest "
                "rules), options, clock and seats, each player at their seat with the token they hold now, each "
                "bot as it was.  The answer's `rematch` is its id (null until then); it is also in this game's "
                "document and its history (RematchCreated), and the new game's document says `rematch_of`."),
}

# Each operation's one-line summary (a view made in this loop has no docstring to give one)
SUMMARIES = {"Resign": "Resign this game", "Abort": "Abort a game that has not started",
             "Leave": "Leave a seat before the game starts", "Rematch": "Ask to play this game again"}


def seat_action_view(path: str, kind: str, operation: str, description: str) -> None:
    @blp.route(f"/<string:game_id>/seats/<int:seat>/{path}")
    class SeatAction(MethodView):
        @blp.response(200, SeatActionSchema)
        @blp.problems({401: "No seat token", 403: "The token is not this seat's", 404: "No such game or seat",
                       409: "Not now at this table (seat-action-refused: `detail` says why), or the game was "
                            "abandoned or archived"})
        @blp.doc(operationId=operation, security=[{"seatToken": []}], summary=SUMMARIES[kind],
                 description=description)
        def post(self, game_id, seat):
            load_for_seat(game_id, seat)
            try:
                game = engine().runner.seat_action(game_id, seat, kind)
            except NotNow as refusal:
                raise Problem(409, "seat-action-refused", refusal.reason, rule=refusal.rule) from None
            return {"game_id": game.id, "seat": seat, "status": game.status, "version": game.version,
                    "outcome": outcome(game) if game.status == "finished" else None,
                    "rematch": (game.table.get("rematch") or {}).get("game_id")}

    SeatAction.__name__ = SeatAction.__qualname__ = f"{kind}Seat"


for _path, (_kind, _operation, _description) in ACTIONS.items():
    seat_action_view(_path, _kind, _operation, _description)
