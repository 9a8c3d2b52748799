"""The settings the tests' apps and servers run with where they differ from the service's defaults.

Tests play reproducible games, so they may fix a game's seed (ALLOW_FIXED_SEEDS: the games then say
seed_source "fixed"); and a game with human seats starts as soon as no seat is open, without waiting for
their entropy (CONTRIBUTION_SECONDS 0).  The defaults themselves (seeds refused, a 30 s window that the
SDK and the web page fill at once) are what tests/service/test_fixed_seeds.py, test_contributions.py, the
README walkthrough and the web tests run with.
"""
TEST_SETTINGS = {"ALLOW_FIXED_SEEDS": True, "CONTRIBUTION_SECONDS": 0}
# and the engine test game's slow bot level reads its settings in the bot process (events/botbox.py)
TEST_ENVIRONMENT = {"ALLOW_FIXED_SEEDS": "1", "CONTRIBUTION_SECONDS": "0",
                    "BOT_PROCESS_ENV": "RACE_SLOW_MARKER,RACE_SLOW_SECONDS"}
