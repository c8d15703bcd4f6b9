"""Which event a command acts on, and how it answers (issue 18, items 6 and 7).

* A command acts first and answers once: a refusal is the only answer (never "Done." or "You
  left …" before it).
* Without ``event:``, a player's command acts on the event he is in; an organiser's command
  acts on the one event it can mean, and refuses, naming them, when there are several; the
  ``event:`` option autocompletes the server's events.
"""

from __future__ import annotations

import pytest
import simcord

from tests.discord.conftest import World
from tests.discord.test_tournaments import (  # noqa: F401  (fixtures)
    declare_all,
    no_incidents,
    quick_any,
    running_tables,
    service,
)


def answers(r: simcord.InteractionResult) -> list[str]:
    """Every text the member read in answer to his command."""
    texts = [r.response.content] if r.response is not None else []
    return texts + [f.content for f in r.followups]


async def test_a_refusal_is_the_only_answer(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol = world.members[:3]
    await admin.slash(ch, "tournament new", name="Rules Cup")
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")

    # A member who is not in the event.
    r = await carol.slash(ch, "tournament drop", event=1)
    assert r.ephemeral
    assert answers(r) == ["You are not entered in this tournament."]
    # The organiser resumes an event that is not paused, disqualifies a non-entrant.
    r = await admin.slash(ch, "tournament resume")
    assert answers(r) == ["This tournament is not paused."]
    r = await admin.slash(ch, "tournament disqualify", member=carol)
    assert answers(r) == ["That player is not in this event."]
    # A refused re-pairing (a game already in) and a cancel of an event that is over.
    r = await admin.slash(ch, "tournament pause")
    assert answers(r) == ["Done."]
    r = await admin.slash(ch, "tournament pause")
    assert answers(r) == ["This tournament is not running."]
    r = await admin.slash(ch, "tournament cancel")
    assert answers(r) == ["Done."]
    r = await admin.slash(ch, "tournament cancel", event=1)
    assert answers(r) == ["This tournament is already over."]
    r = await admin.slash(ch, "tournament repair", event=1)
    assert answers(r) == ["This tournament is not running."]

    # Done once, after the act: alice drops from a running event.
    await admin.slash(ch, "tournament new", name="Second")
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    r = await alice.slash(ch, "tournament drop")
    assert answers(r) == ["You left **Second**. Your results so far stand."]


@pytest.mark.usefixtures("quick_any")
async def test_commands_act_on_the_event_they_mean(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol, dave, eve = world.members
    frank = world.guild.add_member(world.env.create_user("frank"))
    tournaments = service(world)
    await admin.slash(ch, "tournament new", name="Weekly", rounds=3)
    signup = ch.history()[-1]
    for member in (alice, bob, eve, frank):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    await admin.slash(ch, "tournament new", name="Next week")
    signup = ch.history()[-1]
    for member in (alice, carol):
        await member.click(signup, label="Join")

    # An organiser's command that could mean either event refuses, naming both.
    r = await admin.slash(ch, "tournament cancel")
    assert r.ephemeral
    [text] = answers(r)
    assert "#1 Weekly" in text and "#2 Next week" in text and "event:" in text
    weekly, next_week = await tournaments.view(1), await tournaments.view(2)
    assert weekly.record.status == "running" and next_week.record.status == "registration"
    # … one that only one event can take acts on it: fill and start a sign-up, pause a run.
    r = await admin.slash(ch, "tournament pause")
    assert answers(r) == ["Done."]
    assert (await tournaments.view(1)).record.status == "paused"
    r = await admin.slash(ch, "tournament resume")
    assert answers(r) == ["Done."]

    # A player's command acts on the event he is in: alice, in both, drops out of the running
    # one (she cannot "drop" a sign-up); bob leaves the only one he is in.
    r = await alice.slash(ch, "tournament drop")
    assert answers(r) == ["You left **Weekly**. Your results so far stand."]
    weekly = await tournaments.view(1)
    assert weekly.event is not None and alice.id in weekly.event.withdrawn
    assert alice.id in {e.user_id for e in (await tournaments.view(2)).entries}
    r = await carol.slash(ch, "tournament leave")
    assert "Next week" in answers(r)[0]
    assert carol.id not in {e.user_id for e in (await tournaments.view(2)).entries}
    # dave is in neither: told so, nothing changes.
    r = await dave.slash(ch, "tournament drop")
    assert r.ephemeral and answers(r) == ["You are not in any open tournament of this server."]
    # The rules and standings of "the" event: the one the member is in.
    r = await alice.slash(ch, "tournament rules")
    assert r.ephemeral and "Swiss" in r.response.content
    r = await dave.slash(ch, "tournament rules")
    assert "#1 Weekly" in answers(r)[0] and "#2 Next week" in answers(r)[0]

    # event: autocompletes the server's events, newest first, filtered by what is typed.
    choices = await admin.autocomplete(ch, "tournament cancel", "event", "")
    assert [c["value"] for c in choices] == [2, 1]
    assert choices[0]["name"].startswith("#2 Next week")
    choices = await admin.autocomplete(ch, "tournament cancel", "event", "week")
    assert [c["value"] for c in choices] == [2, 1]
    choices = await admin.autocomplete(ch, "tournament cancel", "event", "next")
    assert [c["value"] for c in choices] == [2]
    choices = await alice.autocomplete(ch, "tournament drop", "event", "")
    assert [c["value"] for c in choices] == [2, 1]
    r = await admin.slash(ch, "tournament cancel", event=2)
    assert answers(r) == ["Done."]
    assert (await tournaments.view(2)).record.status == "cancelled"
    assert (await tournaments.view(1)).record.status == "running"
    # Finished and cancelled events are offered where they can be read (show, rules).
    choices = await alice.autocomplete(ch, "tournament show", "event", "")
    assert [c["value"] for c in choices] == [2, 1]
    choices = await alice.autocomplete(ch, "tournament cancel", "event", "")
    assert [c["value"] for c in choices] == [1]
