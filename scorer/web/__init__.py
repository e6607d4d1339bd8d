"""The HTTP edge, below the views: the htmx answers, what a cache may keep, the
sign-in beside the phone's memory, the table's share link and this machine's LAN
address, the middleware."""
