"""The record form's state machines: what a form holds between taps, and how a tap changes it.

Plain classes, no request handling: `Pick` for a round recorded whole (a win or a
draw), `EventPick` for one event of a round recorded event by event.  The views
read a post into one of them, apply the tap and render what it holds.
"""
