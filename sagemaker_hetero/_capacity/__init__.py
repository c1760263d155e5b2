"""A job that gets running when its instance groups' first choices cannot be had (docs/capacity.md)."""
