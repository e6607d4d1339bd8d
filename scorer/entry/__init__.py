"""The record form's state machines: what a form holds between taps, and how a tap changes it.

Plain classes, no request handling: `Pick` for a round recorded whole (a win or a
draw), `EventPick` for one event of a round recorded event by event.  Both answer
one protocol (protocol.py `RecordPick`; `pick_for` chooses which, once): the views
read a post into one of them, apply the taps, render what it holds and save it.
"""
