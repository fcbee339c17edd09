"""The op table of porta/ops.h (PORTA_OP_LIST) as Python data.

tests/python/test_ops_table.py checks this table against ops.h, so the two
cannot drift; the C signatures (_lib.py) and the Tensor methods
(_tensor_ops.py) are generated from it by op kind.
"""
from collections import namedtuple

Op = namedtuple("Op", "NAME name id kind inputs")

OPS = tuple(Op(*row) for row in (
    ("FULL", "full", 0, "FACTORY", 0),
    ("ARANGE", "arange", 1, "FACTORY", 0),
    ("RAND_UNIFORM", "rand_uniform", 2, "FACTORY", 0),
    ("RAND_NORMAL", "rand_normal", 3, "FACTORY", 0),
    ("COPY", "copy", 4, "COPY", 1),
    ("CAST", "cast", 5, "COPY", 1),
    ("NEG", "neg", 6, "UNARY", 1),
    ("EXP", "exp", 7, "UNARY", 1),
    ("LOG", "log", 8, "UNARY", 1),
    ("SQRT", "sqrt", 9, "UNARY", 1),
    ("RELU", "relu", 10, "UNARY", 1),
    ("SIGMOID", "sigmoid", 11, "UNARY", 1),
    ("TANH", "tanh", 12, "UNARY", 1),
    ("ABS", "abs", 13, "UNARY", 1),
    ("ADD", "add", 14, "BINARY", 2),
    ("SUB", "sub", 15, "BINARY", 2),
    ("MUL", "mul", 16, "BINARY", 2),
    ("DIV", "div", 17, "BINARY", 2),
    ("POW", "pow", 18, "BINARY", 2),
    ("MAXIMUM", "maximum", 19, "BINARY", 2),
    ("MINIMUM", "minimum", 20, "BINARY", 2),
    ("EQ", "eq", 21, "COMPARE", 2),
    ("NE", "ne", 22, "COMPARE", 2),
    ("LT", "lt", 23, "COMPARE", 2),
    ("LE", "le", 24, "COMPARE", 2),
    ("GT", "gt", 25, "COMPARE", 2),
    ("GE", "ge", 26, "COMPARE", 2),
    ("WHERE", "where", 27, "WHERE", 3),
    ("SUM", "sum", 28, "REDUCE", 1),
    ("MEAN", "mean", 29, "REDUCE", 1),
    ("MAX", "max", 30, "REDUCE", 1),
    ("MIN", "min", 31, "REDUCE", 1),
    ("ARGMAX", "argmax", 32, "ARGREDUCE", 1),
    ("ARGMIN", "argmin", 33, "ARGREDUCE", 1),
    ("MATMUL", "matmul", 34, "MATMUL", 2),
    ("IM2COL", "im2col", 35, "CONV", 1),
    ("COL2IM", "col2im", 36, "CONV", 1),
    ("MAX_POOL2D", "max_pool2d", 37, "POOL", 1),
    ("MAX_POOL2D_BACKWARD", "max_pool2d_backward", 38, "POOL", 2),
    ("AVG_POOL2D", "avg_pool2d", 39, "POOL", 1),
    ("AVG_POOL2D_BACKWARD", "avg_pool2d_backward", 40, "POOL", 1),
    ("SOFTMAX", "softmax", 41, "SOFTMAX", 1),
    ("LOG_SOFTMAX", "log_softmax", 42, "SOFTMAX", 1),
    ("SOFTMAX_BACKWARD", "softmax_backward", 43, "SOFTMAX", 2),
    ("LOG_SOFTMAX_BACKWARD", "log_softmax_backward", 44, "SOFTMAX", 2),
    ("CROSS_ENTROPY", "cross_entropy", 45, "LOSS", 2),
    ("CROSS_ENTROPY_BACKWARD", "cross_entropy_backward", 46, "LOSS", 3),
    ("SGD_STEP", "sgd_step", 47, "OPTIMIZER", 3),
    ("ADAM_STEP", "adam_step", 48, "OPTIMIZER", 4),
))

# Kinds whose ops have a user-facing C entry point of one shape (porta.h);
# the others are kernels the core runs itself or have hand-written entry points.
USER_KINDS = ("UNARY", "BINARY", "COMPARE", "WHERE", "REDUCE", "ARGREDUCE", "MATMUL")


def of_kind(*kinds):
    """The ops of the given kinds, in table order."""
    return [op for op in OPS if op.kind in kinds]
