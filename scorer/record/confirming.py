"""What a 确认 comes to, decided apart from the request: the round recorded (or found
recorded already), or the form refused with its message and status.

The view (scorer/views/record.py `confirm`) reads the form and the phone, asks
`confirm_pick`, and answers once: the table's page, or the form again.  Keeping the
decision here, with no request in it, makes its every branch one line of data the
view renders the same way, whichever protocol (a whole round, an event) the form is.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from rules import RuleError
from rules.registry import Ruleset
from scorer.entry.pick import Pick
from scorer.language import rule_error_text
from scorer.models import GameSession, RoundTaken
from scorer.web.htmx_answers import expired_text, form_token


@dataclass(frozen=True)
class Recorded:
    """The entry is in: what the table's page says of it ("" for nothing)."""

    message: str


@dataclass(frozen=True)
class Refused:
    """Nothing was recorded: the form `pick` again, with `message`, answered with
    `status` (400, 409) on a plain post."""

    pick: Pick
    message: str
    status: int


def confirm_pick(
    session: GameSession, rs: Ruleset, p: Pick, posted: Mapping[str, str]
) -> Recorded | Refused:
    """Record the round (or add the event) `p` shows, once.

    The token makes confirming idempotent.  A double tap on 确认, a retry after a
    lost answer, or two phones confirming the same form all carry the same token:
    the round the first one recorded is the answer (asked again under the lock by
    the model, and if two requests race past that check at the same moment, the
    token's unique constraint lets only one insert through)."""
    token = form_token(p.token)
    if token is None:
        p.token = str(uuid.uuid4())
        return Refused(p, expired_text(), 400)
    if (rnd := session.recorded(token)) is not None:
        return Recorded(p.done_message(rnd, again=True))
    if msg := p.missing():
        return Refused(p, msg, 400)
    try:
        # for_round: two phones with two forms for the same round record it once.
        rnd = p.save(session, token, p.author)
    except RoundTaken:
        # The form shows the round recorded meanwhile and asks what to do with this one.
        return Refused(p, "", 409)
    except RuleError as e:
        return Refused(p.after_refusal(posted, session, rs), rule_error_text(e), 400)
    return Recorded(p.done_message(rnd, again=False))
