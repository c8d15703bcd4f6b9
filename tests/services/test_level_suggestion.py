"""The computer level suggested to a member (issue 22): the offered level whose fixed strength is
nearest his shown rating in that game and server; a newcomer's is the one nearest 1,000."""

from __future__ import annotations

import pytest

from bot.ai.levels import levels_for
from bot.services.clock import ManualClock
from bot.services.ratings import (
    ModelParams,
    RatingService,
    display_rating,
    level_ratings,
    nearest_level,
)
from bot.storage.db import Database
from bot.storage.ratings import MemberRating, RatingsRepo

GUILD, OTHER_GUILD = 1, 2
ALICE = 11
PARAMS = ModelParams()


@pytest.mark.parametrize("game", ["kap-shap", "kap-tai-shap", "tsung-shap"])
def test_each_rating_gets_the_nearest_level(game: str) -> None:
    strengths = level_ratings(game, PARAMS)
    assert "master" not in strengths  # it stands in for the expert: never suggested
    levels = list(strengths)
    assert levels == [level for level in levels_for(game) if level != "master"]
    for level, number in strengths.items():
        assert nearest_level(game, number, PARAMS) == level
        assert nearest_level(game, number + 40, PARAMS) == level
    # Far below the weakest and far above the strongest: the ends of the ladder.
    weakest = "novice" if game == "kap-shap" else "beginner"
    assert nearest_level(game, 0, PARAMS) == levels[0] == weakest
    assert nearest_level(game, 3000, PARAMS) == levels[-1] == "expert"
    # Halfway between two rungs the weaker one is suggested.
    low, high = strengths[levels[0]], strengths[levels[1]]
    if (low + high) % 2 == 0:
        assert nearest_level(game, (low + high) // 2, PARAMS) == levels[0]


async def test_a_newcomer_is_suggested_the_level_nearest_1000(db: Database) -> None:
    ratings = RatingService(db, ManualClock())
    suggestion = await ratings.suggest_level(GUILD, ALICE, "kap-shap")
    assert suggestion.newcomer and suggestion.rating == 1000
    # The novice (1,244 in Kap Shap) is the level nearest a newcomer's 1,000.
    assert suggestion.level == nearest_level("kap-shap", 1000, PARAMS) == "novice"


async def test_a_rated_member_is_suggested_the_level_nearest_his_shown_rating(
    db: Database,
) -> None:
    ratings = RatingService(db, ManualClock())
    strengths = level_ratings("kap-shap", PARAMS)
    # A member whose shown rating is the club level's number, give or take a few points.
    sigma = 1.5
    mu = PARAMS.centre + (strengths["club"] - PARAMS.base) / PARAMS.scale + 3 * sigma + 0.1
    shown = display_rating(mu, sigma, PARAMS)
    async with db.transaction() as tx:
        member = MemberRating(GUILD, "kap-shap", ALICE, 30, 15, 0, 30, mu, sigma, shown)
        await RatingsRepo().put_member(tx, member)
    suggestion = await ratings.suggest_level(GUILD, ALICE, "kap-shap")
    assert not suggestion.newcomer
    assert suggestion.rating == shown and abs(shown - strengths["club"]) < 10
    assert suggestion.level == "club"
    # Another game, another server: he is a newcomer there.
    assert (await ratings.suggest_level(GUILD, ALICE, "tsung-shap")).newcomer
    assert (await ratings.suggest_level(OTHER_GUILD, ALICE, "kap-shap")).level == "novice"
