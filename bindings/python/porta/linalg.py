"""porta.linalg: the vector norm of torch.linalg (matrix functions are not in Porta yet)."""
from ._reduction_ops import vector_norm

__all__ = ["vector_norm"]
