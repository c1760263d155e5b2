"""What a job costs, before and after it runs, and what changed since another job (docs/cost.md)."""
