"""First contact: what a new user meets on a fresh clone (`make run`, the README's walkthrough,
`make test`'s closing line)."""
