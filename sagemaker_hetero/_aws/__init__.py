"""Stage 4: the AWS edge (docs/architecture.md). Empty, so that importing the package imports no boto3."""
