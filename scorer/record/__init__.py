"""The record page: what a phone sees while it records a round, above the form's state machines.

The picker (the tiles, hands and seats a form asks for next), the live result of what
the form holds (`result`), the page's view model over both flows (`page`), and what the
page reads of the request (`request`: the phone's seat, the post, the form's draft).
It sits above scorer/entry/, which it shows, and below the views that route to it.
"""
