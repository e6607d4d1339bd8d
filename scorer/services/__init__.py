"""What reads and changes the models for the views: one layer above scorer/models/.

Access helpers that find a row through the visitor's right to it (`access`), the
phone's own state (`phone`), the live streams' versions (`live`), a room's day and its
till (`day`, `till`), seating, a table's export and import, and a player's record.
No request routing and no HTML: the views call these, present/ shows what they return.
"""
