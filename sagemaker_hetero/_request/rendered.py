"""The request a dry run returns: a ``dict`` that also shows its cluster (``_request.view``, imported
only when it is shown, so a dry run that only sends or prints the request pays nothing for it).
"""

__all__ = ["RenderedRequest"]


class RenderedRequest(dict):
    """A CreateTrainingJob request, as ``fit(dry_run=True)`` returns it.

    A ``dict`` in every way: it compares equal to the plain dict, serialises to the same JSON and is
    passed as ``create_training_job(**request)``; ``repr`` and ``pprint`` show the dict. In addition
    it shows its cluster as a table in Jupyter (``_repr_html_``, with the request folded below), and
    :meth:`describe_cluster` gives the same table as text. ``dict(request)`` is a plain copy.
    """

    __slots__ = ("plan", "estimate", "choices")

    def __init__(self, request=(), plan=None, estimate=None, choices=None):
        super(RenderedRequest, self).__init__(request)
        self.plan = plan
        #: ``estimate(prices)``: the request's cost estimate shown below the cluster (None: none)
        self.estimate = estimate
        #: ``choices(prices)``: the instance groups' choices, priced, as lines below the cluster (None: none)
        self.choices = choices

    def __reduce__(self):  # copies and pickles are plain requests again
        return (dict, (dict(self),))

    def _view(self, prices=None):
        import attrs

        from sagemaker_hetero._request import view  # the table's code: only when the request is shown

        shown = view.view_of_plan(self.plan, self)
        if self.choices is not None:
            shown = attrs.evolve(shown, notes=tuple(shown.notes) + tuple(self.choices(prices)))
        return attrs.evolve(shown, cost=self.estimate(prices)) if self.estimate is not None else shown

    def describe_cluster(self, prices=None):
        """The cluster as a text table (instance groups, channels, launcher, image, output, code), then its
        cost estimate (no call: ``prices``, a price file's path or a mapping, else
        ``SAGEMAKER_HETERO_PRICES``'s file, and the price cache)."""
        return self._view(prices).text()

    def _repr_html_(self):
        try:
            import json

            return self._view().html(details=json.dumps(self, indent=2))
        except Exception:  # noqa: BLE001 - a notebook falls back to the dict's repr
            return None
