"""A room's fixed tables (1号桌, 包间A) and the codes their QR codes carry.

Below scorer.models.rooms (which re-exports them with the rooms): a table names its room
by the model's label, and logs what its admins do through `room.log_action`.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorer.clean.text import TABLE_NAME, cut
from scorer.models.locking import lock_objects
from scorer.models.roomlog import (
    TABLE_BROUGHT_BACK,
    TABLE_CODE_REPLACED,
    TABLE_EDITED,
    TABLE_RETIRED,
    Actor,
)
from scorer.money.timefee import checked_time_fee

# A table's number, as it is painted on it: 1 to 9,999 on every path (both forms,
# Room.add_tables, a URL's number); tables numbered past it before the limit was one
# are kept.
FIRST_TABLE, LAST_TABLE = 1, 9999


def new_room_code() -> str:
    """A fixed table's code: part of the URL printed in its QR code, so unguessable
    (a table's QR code opens that table's sessions, whose links are their only key)."""
    return secrets.token_urlsafe(9)


class RoomTable(models.Model):
    """A physical table of the room (1号桌, 包间A), with a stable URL and QR code.

    The code in its QR code is the key to the table: whoever scans it joins the
    table's open game or starts one.  A code that leaked is replaced (the old one
    then answers "replaced, scan the one on the table"); a table taken out of the
    room is retired (its codes answer "no longer in use"), and can be brought back.
    Either way the games played at it keep working by their own links."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=TABLE_NAME.max_length, blank=True)
    code = models.CharField(max_length=24, unique=True, default=new_room_code, editable=False)
    # Set when the room's admins retire it: off the QR sheet, its code opens nothing.
    retired_at = models.DateTimeField(_("retired"), null=True, blank=True)
    # Its own 计时 fee (包间A dearer than the hall), over its configuration's: {} for
    # none (scorer/money/timefee.py; checked when an admin saves it).
    time_fee = models.JSONField(_("time fee"), default=dict, blank=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="one_table_per_number"),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """What the room calls it: its name, else "3号桌" / "Table 3"."""
        return self.name or str(_("Table %(n)s") % {"n": self.number})

    @property
    def in_use(self) -> bool:
        return self.retired_at is None

    @property
    def qr_version(self) -> str:
        """A fingerprint of the table's code, in the URL of its QR image: a new code is
        a new URL, so no browser or proxy can show the old image from its cache, and
        the code itself stays out of the image's URL.  A confirmation to replace the
        code carries it too (replace_code's `seen`)."""
        return hashlib.sha256(f"room-table-qr:{self.code}".encode()).hexdigest()[:12]

    def log_data(self) -> dict[str, Any]:
        """How the room's log names the table (its label is said in the reader's
        language when the log is read)."""
        return {"number": self.number, "name": self.name}

    def edit(
        self, number: int, name: str, by: Actor, time_fee: dict[str, Any] | None = None
    ) -> bool:
        """Renumber or rename the table (its QR code stays the same), or set its own 计时
        price (`time_fee`, checked; {} for its configuration's); logged with what it was
        before and after.  False when nothing changed.  The (room, number) constraint
        refuses a number another admin took meanwhile (IntegrityError, nothing saved)."""
        with lock_objects(self) as (table,):
            before = {**table.log_data(), "time_fee": table.time_fee or {}}
            table.number, table.name = number, cut(TABLE_NAME, name)
            if time_fee is not None:
                table.time_fee = checked_time_fee(time_fee)
            after = {**table.log_data(), "time_fee": table.time_fee or {}}
            if before == after:
                return False
            table.save(update_fields=["number", "name", "time_fee"])
            self.number, self.name, self.time_fee = table.number, table.name, table.time_fee
            if before["time_fee"] == after["time_fee"]:  # (the log lists what changed)
                del before["time_fee"], after["time_fee"]
            self.room.log_action(
                TABLE_EDITED, by, {"table": table.log_data(), "before": before, "after": after}
            )
            return True

    def retire(self, by: Actor) -> bool:
        """Take the table out of the room: off the QR sheet, and its code (and every
        code it had) answers "this table is no longer in use".  A game open at it
        goes on by its own link until it is closed; nobody new joins it by the QR
        code.  False when it was retired already.

        Race: a phone starting a game here (seating.start_at) holds the same row
        lock, so it either started before the retirement (and goes on by its own
        link) or finds the table retired and starts nothing."""
        with lock_objects(self) as (table,):
            if table.retired_at is not None:
                return False
            table.retired_at = self.retired_at = timezone.now()
            table.save(update_fields=["retired_at"])
            self.room.log_action(TABLE_RETIRED, by, {"table": table.log_data()})
            return True

    def bring_back(self, by: Actor) -> bool:
        """A retired table in use again, with the code it had (still printed on it);
        False when it was in use.  Give it a new code as well if the old one leaked."""
        with lock_objects(self) as (table,):
            if table.retired_at is None:
                return False
            table.retired_at = self.retired_at = None
            table.save(update_fields=["retired_at"])
            self.room.log_action(TABLE_BROUGHT_BACK, by, {"table": table.log_data()})
            return True

    def replace_code(self, by: Actor, seen: str | None = None) -> bool:
        """A new QR code for the table, at once: the old code then answers "this QR
        code was replaced", the sheet and the table's QR image show the new one.
        Games already played or open at the table keep working by their own links.

        `seen`: the qr_version the admin confirmed.  Two admins confirming at once
        would replace it twice (and the first one's new print would be stale);
        under the row lock the second finds another version and replaces nothing
        (False).  ValueError for a retired table (bring it back first)."""
        with lock_objects(self) as (table,):
            if table.retired_at is not None:
                raise ValueError("a retired table gets no new code")
            if seen is not None and seen != table.qr_version:
                return False
            ReplacedTableCode.objects.create(table=table, code=table.code)
            table.code = self.code = new_room_code()
            table.save(update_fields=["code"])
            self.room.log_action(TABLE_CODE_REPLACED, by, {"table": table.log_data()})
            return True

    def last_names(self) -> list[str]:
        """The players of this table's last session, to prefill the next one's start:
        the same four friends sit at "their" table every week."""
        last = self.sessions.order_by("-created_at", "-pk").values_list("players", flat=True)
        names = last.first()
        return [str(n) for n in names] if isinstance(names, list) else []


class ReplacedTableCode(models.Model):
    """A table's code that a new one replaced: it opens nothing, and its page says so
    ("this QR code was replaced: scan the one on the table")."""

    table = models.ForeignKey(RoomTable, on_delete=models.CASCADE, related_name="old_codes")
    code = models.CharField(max_length=24, unique=True)
    replaced_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.table} (replaced {self.replaced_at:%Y-%m-%d})"


__all__ = ["ReplacedTableCode", "RoomTable", "new_room_code"]
