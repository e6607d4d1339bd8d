"""The room's till: money in 元 (Decimal, to the 分), kept apart from the players' points.

- `TableCharge`: what a closed table owes the room, per seat (its 计时 fee shared
  AA).  Written when the table closes; it stays in the books while the table is
  reopened, and the next close marks it undone (kept, `undone_at` = that close)
  and charges again: the room's books count a row on its close's day and take it
  back on the day of the close that replaced it, so the difference counts there.  Never in the players' point `deltas` nor `room_take`.
- `Collection`: money the room received for a table (or gave back: a negative
  amount is a refund), per seat, with its method (现金, 微信, 支付宝, 会员余额).
  Never undone: a reopen that changes a fee already collected leaves the
  difference owed, or to refund (charged - collected < 0).
- `BalanceEntry`: a member's prepaid balance (会员储值), signed: a top-up adds, a
  charge to the balance takes (a debt shows as negative).  Its balance is the sum.
- `DayClose`: the room's 日结, who closed the day and what it showed then.

Below the sessions' module (a table is named by its label, "scorer.GameSession"),
which imports this one; what changes these rows under a table's lock lives in
scorer/services/till.py.  The room's books hold only what players owe the room: what they
owe each other stays in the table's settle-up and never reaches a balance.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scorer.models.players import Player
from scorer.money import clock

CASH, WECHAT, ALIPAY, BALANCE = "cash", "wechat", "alipay", "balance"
METHODS = {
    CASH: _("Cash"),
    WECHAT: _("WeChat Pay"),
    ALIPAY: _("Alipay"),
    BALANCE: _("Member's balance"),
}
# What an admin may collect by hand (BALANCE is taken from a balance, confirmed apart).
HAND_METHODS = (CASH, WECHAT, ALIPAY)
TIME, FEE = "time", "fee"
ZERO = Decimal("0.00")


def money_field(**kwargs: object) -> models.DecimalField:
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)  # type: ignore[arg-type]


class TableCharge(models.Model):
    """One seat's share of what a closed table owes the room (元)."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="charges")
    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="charges"
    )
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=[(TIME, TIME), (FEE, FEE)], default=TIME)
    amount = money_field()
    # The close it belongs to: the table's closed_at (its day in the room's books).
    at = models.DateTimeField(default=clock.now)
    # Set when the table was reopened: the charge stays, struck through.
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["at", "seat", "pk"]
        indexes = [models.Index(fields=["room", "at"], name="charge_room_day")]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="charge_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}:{self.seat} {self.amount}"


class Collection(models.Model):
    """Money the room received for a table's seat (negative: given back)."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="collections")
    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="collections"
    )
    seat = models.PositiveSmallIntegerField()
    amount = money_field()
    method = models.CharField(max_length=8, choices=list(METHODS.items()))
    at = models.DateTimeField(default=clock.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_name = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["room", "at"], name="collection_room_day")]

    def __str__(self) -> str:
        return f"{self.session_id}:{self.seat} {self.amount} {self.method}"


class BalanceEntry(models.Model):
    """One top-up or charge of a member's balance (signed 元); the balance is their sum."""

    TOPUP, CHARGE = "topup", "charge"
    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="balances")
    # A merge of two players moves these with the seats (Player.merge_into).
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="balance_entries")
    kind = models.CharField(max_length=8, choices=[(TOPUP, TOPUP), (CHARGE, CHARGE)])
    amount = money_field()
    method = models.CharField(max_length=8, choices=list(METHODS.items()), blank=True)
    session = models.ForeignKey(
        "scorer.GameSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="balance_entries",
    )
    at = models.DateTimeField(default=clock.now)
    by_name = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["player", "at"], name="balance_player_at")]
        constraints = [
            # A top-up adds, a charge takes: the sign says which.
            models.CheckConstraint(
                condition=(
                    models.Q(kind="topup", amount__gt=0) | models.Q(kind="charge", amount__lt=0)
                ),
                name="balance_entry_signed_by_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.amount}"


class DayClose(models.Model):
    """The room's 日结: a day of its books closed by an admin, with what it showed.

    Frozen: the figures kept (scorer/services/kept.py `kept_figures`: totals, money
    taken by method and by admin, each table's line) are what the closed day shows
    from then on, and the day's first and last instants are its boundaries for good,
    whatever end hour the room sets later.  `cash_counted`: the cash the admin counted
    at the close, if he did (长短款 against the cash the books expected)."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="day_closes")
    day = models.DateField()
    at = models.DateTimeField(default=clock.now)
    by_name = models.CharField(max_length=80, blank=True)
    figures = models.JSONField(default=dict)
    start = models.DateTimeField(null=True)
    end = models.DateTimeField(null=True)
    cash_counted = money_field(null=True, blank=True)

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.UniqueConstraint(fields=["room", "day"], name="one_close_per_room_day"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id} {self.day}"


__all__ = [
    "ALIPAY",
    "BALANCE",
    "CASH",
    "FEE",
    "HAND_METHODS",
    "METHODS",
    "TIME",
    "WECHAT",
    "ZERO",
    "BalanceEntry",
    "Collection",
    "DayClose",
    "TableCharge",
]
