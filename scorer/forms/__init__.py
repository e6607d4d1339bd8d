"""scorer's Django forms: the start form and its parameters (`start`), a room's forms (`room`),
and the fee fields a configuration's form adds (`fees`, `time_fees`).

Above the models, services and present/ (a form's choices are named the way the pages
name them), below the views that bind them.  The rules the fee fields give are below
the models, in scorer/money/fees.py and scorer/money/timefee.py.
"""
