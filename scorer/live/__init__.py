"""Live: the broker that carries "a table changed" between workers, the event streams
that nudge the phones, and the figures a deployment watches of them."""
