"""porta.nn: modules and layers as torch.nn."""
from . import functional, init
from .layers import (AvgPool2d, Conv2d, Dropout, Flatten, Identity, Linear, LogSoftmax, MaxPool2d, ModuleList,
                     ReLU, Sequential, Sigmoid, Softmax, Tanh)
from .loss import CrossEntropyLoss, MSELoss
from .module import Module
from .parameter import Parameter

__all__ = ["functional", "init", "Module", "Parameter", "Sequential", "ModuleList", "Identity", "Linear",
           "Conv2d", "ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "MaxPool2d", "AvgPool2d", "Flatten",
           "Dropout", "MSELoss", "CrossEntropyLoss"]
