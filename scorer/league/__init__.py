"""The league's arithmetic: a table's seat results, the standings, the skill ratings
(no model: scorer/models/league.py keeps what they compute)."""
