"""porta.nn: modules and layers as torch.nn."""
from . import functional, init, utils
from .layers import (ELU, GELU, AvgPool2d, BatchNorm1d, BatchNorm2d, Conv1d, Conv2d, Dropout, Embedding, Flatten,
                     GroupNorm, Hardtanh, Identity, LayerNorm, LeakyReLU, Linear, LogSigmoid, LogSoftmax, MaxPool2d,
                     ModuleList, ReLU, ReLU6, Sequential, Sigmoid, SiLU, Softmax, Softplus, Tanh)
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .attention import MultiheadAttention, TransformerEncoderLayer
from .recurrent import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase
from .spatial import (AdaptiveAvgPool2d, CircularPad1d, CircularPad2d, ConstantPad1d, ConstantPad2d, Dropout1d,
                      Dropout2d, Dropout3d, ReflectionPad1d, ReflectionPad2d, ReplicationPad1d, ReplicationPad2d,
                      Upsample, UpsamplingBilinear2d, UpsamplingNearest2d, ZeroPad2d)
from .transposed import ConvTranspose1d, ConvTranspose2d
from .containers import ModuleDict, ParameterDict, ParameterList
from .module import Module
from .parameter import Parameter
from . import parallel  # DistributedDataParallel (porta.distributed)

__all__ = ["functional", "init", "utils", "parallel", "Module", "Parameter", "Sequential", "ModuleList", "Identity", "Linear",
           "Conv1d", "Conv2d", "ReLU", "GELU", "SiLU", "Softplus", "LeakyReLU", "ELU", "Hardtanh", "ReLU6",
           "LogSigmoid", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "MaxPool2d", "AvgPool2d", "Flatten", "Dropout",
           "Embedding", "LayerNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "MSELoss", "CrossEntropyLoss",
           "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
           "MultiheadAttention", "TransformerEncoderLayer", "ModuleDict", "ParameterList", "ParameterDict", "RNNBase",
           "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "AdaptiveAvgPool2d", "ZeroPad2d",
           "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d",
           "ReplicationPad2d", "CircularPad1d", "CircularPad2d", "Dropout1d", "Dropout2d", "Dropout3d", "Upsample",
           "UpsamplingNearest2d", "UpsamplingBilinear2d", "ConvTranspose1d", "ConvTranspose2d"]
