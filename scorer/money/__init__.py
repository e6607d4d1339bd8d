"""Money: the table fee and the time fee (台费, 计时), the table's clock they bill by,
and the settle-up of a ledger into payments."""
