"""The HTTP resources: one blueprint per module, registered from one list."""
from __future__ import annotations

from service.api.analysis import blp as analysis_blp
from service.api.challenges import blp as challenges_blp
from service.api.chat import blp as chat_blp
from service.api.games import blp as games_blp
from service.api.health import blp as health_blp
from service.api.invitations import blp as invitations_blp
from service.api.metrics import blp as metrics_blp
from service.api.my_stream import blp as my_stream_blp
from service.api.play import blp as play_blp
from service.api.players import blp as players_blp
from service.api.problems import blp as problems_blp
from service.api.replays import blp as replays_blp
from service.api.rulesets import blp as rulesets_blp
from service.api.table_life import blp as table_life_blp

BLUEPRINTS = [health_blp, rulesets_blp, games_blp, table_life_blp, play_blp, chat_blp, replays_blp,
              players_blp, my_stream_blp, challenges_blp, invitations_blp, analysis_blp, metrics_blp, problems_blp]
