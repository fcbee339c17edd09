"""Recurrent layers as torch.nn: RNN, LSTM, GRU (multi-layer, bidirectional, batch_first, dropout between
layers) and RNNCell, LSTMCell, GRUCell. The recurrence is porta.h's porta_rnn / porta_rnn_cell, defined in
the core: each layer's direction is one autograd node whose backward runs back through time. Parameters
carry PyTorch's names (weight_ih_l0, bias_hh_l1_reverse, ...) and layout (gates stacked i, f, g, o for
LSTM and r, z, n for GRU), so a PyTorch state_dict loads unchanged."""
import math
import warnings
from ctypes import byref, c_void_p

from .. import _abi, _factories
from .._lib import RnnOptions, fn, sized
from .._tensor import Tensor, call_outs
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

_MODES = {"RNN_TANH": _abi.PORTA_RNN_TANH, "RNN_RELU": _abi.PORTA_RNN_RELU, "LSTM": _abi.PORTA_RNN_LSTM,
          "GRU": _abi.PORTA_RNN_GRU}  # porta_rnn_mode
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _mode(nonlinearity):
    if nonlinearity not in ("tanh", "relu"):
        raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
    return "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"


def _refuse_packed(input, name):  # noqa: A002 - torch's name
    if not isinstance(input, Tensor):
        raise NotImplementedError(f"{name}: input must be a Tensor; PackedSequence (pack_padded_sequence) is not "
                                  f"supported by Porta: pad the batch and pass a Tensor")


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters of every layer and direction, and the call of porta_rnn."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if proj_size:
            raise NotImplementedError("LSTM: proj_size (a projected hidden state) is not supported by Porta")
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers=1",
                          stacklevel=2)
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bool(bias), bool(batch_first)
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bool(bidirectional), 0
        gates = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(directions):
                size = input_size if layer == 0 else hidden_size * directions
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = [("weight_ih", (gates, size)), ("weight_hh", (gates, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(_factories.empty(*shape, device=device, dtype=dtype)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's: every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters of each layer and direction, as lists (PyTorch's all_weights)."""
        per = 4 if self.bias else 2
        w = self._flat_weights
        return [w[i:i + per] for i in range(0, len(w), per)]

    def _run(self, input, h0, c0):  # noqa: A002 - torch's name
        _refuse_packed(input, type(self).__name__)
        weights = self._flat_weights
        self._check_input_device(input, weights[0])
        o = sized(RnnOptions, mode=_MODES[self.mode], num_layers=self.num_layers,
                  bidirectional=int(self.bidirectional), batch_first=int(self.batch_first),
                  has_biases=int(self.bias), training=int(self.training), dropout=self.dropout)
        handles = (c_void_p * len(weights))(*[w._h.value for w in weights])
        return call_outs(fn.porta_rnn, input._h, F._handle(h0), F._handle(c0), handles, len(weights), byref(o),
                         n=3)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s


class RNN(RNNBase):
    """torch.nn.RNN: h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh) (or relu); forward(input, hx=None)
    returns (output, h_n)."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        super().__init__(_mode(nonlinearity), input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        output, h_n, _ = self._run(input, hx, None)
        return output, h_n

    def extra_repr(self):
        return super().extra_repr()  # PyTorch's RNN shows no nonlinearity


class LSTM(RNNBase):
    """torch.nn.LSTM (gates i, f, g, o); forward(input, hx=None) with hx = (h_0, c_0) returns
    (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        if hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise RuntimeError("LSTM: hx must be a tuple (h_0, c_0) of tensors")
        h0, c0 = (None, None) if hx is None else hx
        output, h_n, c_n = self._run(input, h0, c0)
        return output, (h_n, c_n)


class GRU(RNNBase):
    """torch.nn.GRU (gates r, z, n); forward(input, hx=None) returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        output, h_n, _ = self._run(input, hx, None)
        return output, h_n


class RNNCellBase(Module):
    """One step of a recurrence: weight_ih [G H, input_size], weight_hh [G H, H], bias_ih and bias_hh [G H]."""

    def __init__(self, mode, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.bias = mode, input_size, hidden_size, bool(bias)
        gates = _GATES[mode] * hidden_size
        self.weight_ih = Parameter(_factories.empty(gates, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(_factories.empty(gates, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_factories.empty(gates, device=device, dtype=dtype))
            self.bias_hh = Parameter(_factories.empty(gates, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def _step(self, input, h, c):  # noqa: A002 - torch's name
        _refuse_packed(input, type(self).__name__)
        self._check_input_device(input, self.weight_ih)
        return call_outs(fn.porta_rnn_cell, _MODES[self.mode], input._h, F._handle(h), F._handle(c), self.weight_ih._h,
                     self.weight_hh._h, F._handle(self.bias_ih), F._handle(self.bias_hh), n=2)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        return s + ("" if nonlinearity == "tanh" else f", nonlinearity={nonlinearity}")


class RNNCell(RNNCellBase):
    """torch.nn.RNNCell: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu); forward(input, hx=None)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(_mode(nonlinearity), input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        return self._step(input, hx, None)[0]


class LSTMCell(RNNCellBase):
    """torch.nn.LSTMCell: forward(input, hx=None) with hx = (h, c) returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        if hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise RuntimeError("LSTMCell: hx must be a tuple (h, c) of tensors")
        h, c = (None, None) if hx is None else hx
        h1, c1 = self._step(input, h, c)
        return h1, c1


class GRUCell(RNNCellBase):
    """torch.nn.GRUCell: forward(input, hx=None) returns h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - torch's name
        return self._step(input, hx, None)[0]
