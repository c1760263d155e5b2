"""What a training job used, per instance group and per host: figures (``figures``), the verdict
(``verdict``) and the charts (``charts``; ``plot`` writes them to a file). Pure but for ``plot``: the
metrics are fetched by the AWS edge (``_aws.usage``) or read from a local job's folder (``local._usage``)."""
