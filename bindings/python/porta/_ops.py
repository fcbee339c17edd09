"""The op table as Python data, read from the loaded libporta.so
(porta_op_get_info: the rows of ops.h's PORTA_OP_DESCRIPTORS), so it is the
library's own and nothing here restates it. The C signatures (_lib.py) and the
Tensor methods (_math_ops.py) are generated from it by op kind.
"""
from collections import namedtuple

from ._lib import op_table

Op = namedtuple("Op", "NAME name id kind inputs dtypes result differentiable doc")

OPS = tuple(Op(*row) for row in op_table())

# Kinds whose ops have a user-facing C entry point of one shape (porta.h);
# the others are kernels the core runs itself or have hand-written entry points.
USER_KINDS = ("UNARY", "BINARY", "COMPARE", "WHERE", "REDUCE", "ARGREDUCE", "MATMUL", "SCAN")


def of_kind(*kinds):
    """The ops of the given kinds, in table order."""
    return [op for op in OPS if op.kind in kinds]
