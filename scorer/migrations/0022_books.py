"""The books hold still (issue 44): a 日结 keeps its day's boundaries and the cash
counted; a reopened table's money charge stays in the books until its next close,
which strikes it through (`undone_at` = that close), not the reopening."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def undone_at_the_next_close(apps: Any, schema_editor: Any) -> None:
    """Charges struck through at a reopening: at the close that replaced them (the next
    charge's instant, or the table's close when it was charged nothing), or, while the
    table stands reopened, not at all (kept in the books)."""
    TableCharge = apps.get_model("scorer", "TableCharge")
    for charge in TableCharge.objects.filter(undone_at__isnull=False).select_related("session"):
        later = (
            TableCharge.objects.filter(session_id=charge.session_id, at__gt=charge.at)
            .order_by("at")
            .values_list("at", flat=True)
            .first()
        )
        charge.undone_at = later or charge.session.closed_at
        charge.save(update_fields=["undone_at"])


class Migration(migrations.Migration):
    dependencies = [("scorer", "0021_till")]

    operations = [
        migrations.AddField(
            model_name="dayclose", name="start", field=models.DateTimeField(null=True)
        ),
        migrations.AddField(
            model_name="dayclose", name="end", field=models.DateTimeField(null=True)
        ),
        migrations.AddField(
            model_name="dayclose",
            name="cash_counted",
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True),
        ),
        migrations.RunPython(undone_at_the_next_close, migrations.RunPython.noop),
    ]
