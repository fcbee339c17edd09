"""torch.utils.hooks.RemovableHandle, for tensor hooks and module hooks alike."""
import itertools

_ids = itertools.count()


class RemovableHandle:
    """What register_hook / register_forward_hook return: remove() takes the hook off (a second remove()
    does nothing); also a context manager that removes it on exit."""

    def __init__(self, remove):
        self._remove = remove
        self.id = next(_ids)

    def remove(self):
        if self._remove is not None:
            self._remove()
            self._remove = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
