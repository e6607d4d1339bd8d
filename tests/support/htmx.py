"""The headers of a request htmx makes, for Django's test client (`**HTMX`).

The pages answer an htmx request with a partial, a whole page otherwise
(scorer/web/htmx_answers.py); every test that posts as htmx does sends these.
"""

HTMX = {"HTTP_HX_REQUEST": "true"}
