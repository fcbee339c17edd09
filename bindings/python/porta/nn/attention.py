"""MultiheadAttention and TransformerEncoderLayer, as torch.nn's: compositions of
Linear, the attention ops of porta.h, LayerNorm and Dropout (so every device runs
them, and their gradients come from those ops)."""
import math

from .. import _dtype, _factories
from . import functional as F
from . import init
from .layers import Dropout, LayerNorm, Linear
from .module import Module
from .parameter import Parameter


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under the class name PyTorch gives MultiheadAttention's out_proj (so reprs match)."""


class MultiheadAttention(Module):
    """torch.nn.MultiheadAttention with one input projection [3E, E] (in_proj_weight) and out_proj.
    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False) -> (output, weights or None)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        for name, value, default in (("add_bias_kv", add_bias_kv, False), ("add_zero_attn", add_zero_attn, False)):
            if value != default:
                raise NotImplementedError(f"MultiheadAttention: {name}={value!r} is not supported by Porta")
        if (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: kdim/vdim other than embed_dim are not supported by Porta")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = Parameter(_factories.empty(3 * embed_dim, embed_dim, device=device, dtype=dtype))
        if bias:
            self.in_proj_bias = Parameter(_factories.zeros(3 * embed_dim, device=device, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        init.xavier_uniform_(self.in_proj_weight)
        if bias:
            init.zeros_(self.out_proj.bias)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        unbatched = query.dim() == 2  # [L, E], as PyTorch takes it: a batch of one, then squeezed
        if unbatched:
            if key.dim() != 2 or value.dim() != 2:
                raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but "
                                     f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
            query, key, value = (t.unsqueeze(0) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif query.dim() != 3:
            raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D "
                                 "query tensor")
        batch_first = self.batch_first or unbatched
        if not batch_first:  # [L, N, E] -> [N, L, E]
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        n, lq, e = query.shape
        s = key.shape[1]
        w, b = self.in_proj_weight, self.in_proj_bias
        wq, wk, wv = w.chunk(3)
        bq, bk, bv = b.chunk(3) if b is not None else (None, None, None)
        h, d = self.num_heads, self.head_dim

        def heads(x, weight, bias, length):
            return F.linear(x, weight, bias).reshape(n, length, h, d).transpose(1, 2)  # [N, h, len, d]

        q, k, v = heads(query, wq, bq, lq), heads(key, wk, bk, s), heads(value, wv, bv, s)
        mask = self._combined_mask(attn_mask, key_padding_mask, is_causal, n, lq, s, query)
        p = self.dropout if self.training else 0.0
        if need_weights:
            scores = q.matmul(k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
            if mask is not None:  # added, as PyTorch's: a fully masked row's NaN reaches the gradients too
                if mask.dtype.name == "bool":
                    mask = _factories.zeros(*mask.shape, dtype=scores.dtype,
                                            device=scores.device).masked_fill(~mask, float("-inf"))
                scores = scores + mask
            weights = F.dropout(F.softmax(scores, -1), p, self.training)  # returned after dropout, as PyTorch's
            out = weights.matmul(v)
        else:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
            weights = None
        out = self.out_proj(out.transpose(1, 2).reshape(n, lq, e))
        if not batch_first:
            out = out.transpose(0, 1)
        if weights is not None and average_attn_weights:
            weights = weights.mean(1)
        if unbatched:
            out = out.squeeze(0)
            weights = weights.squeeze(0) if weights is not None else None
        return out, weights

    def _combined_mask(self, attn_mask, key_padding_mask, is_causal, n, lq, s, like):
        """One mask for [N, h, L, S]: bool (True where attention is allowed) when every given mask is bool, else
        additive floats. PyTorch's module masks say the opposite: True means "not allowed"."""
        masks = []
        if attn_mask is None and is_causal:  # is_causal is a hint about the mask, as PyTorch's
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                               "method `generate_square_subsequent_mask` to create this mask.")
        for name, m in (("attn_mask", attn_mask), ("key_padding_mask", key_padding_mask)):
            if m is not None and m.dtype is not _dtype.bool_ and not m.dtype.is_floating_point:
                raise AssertionError(f"only bool and floating types of {name} are supported (got {m.dtype}; "
                                     "compare it, mask != 0, for a bool mask)")
        if attn_mask is not None:
            masks.append(attn_mask.reshape(n, self.num_heads, lq, s) if attn_mask.ndim == 3 else attn_mask)
        if key_padding_mask is not None:
            masks.append(key_padding_mask.reshape(n, 1, 1, s))
        if not masks:
            return None
        if all(m.dtype.name == "bool" for m in masks):
            allowed = masks[0].logical_not()
            for m in masks[1:]:
                allowed = allowed.logical_and(m.logical_not())
            return allowed
        total = None
        for m in masks:
            if m.dtype.name == "bool":
                m = _factories.zeros(*m.shape, dtype=like.dtype, device=like.device).masked_fill(m, float("-inf"))
            total = m if total is None else total + m
        return total


class TransformerEncoderLayer(Module):
    """torch.nn.TransformerEncoderLayer: self-attention and a feed-forward block, each with dropout, a residual
    and LayerNorm (after, or before with norm_first=True)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            device=device, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, device=device, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, device=device, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)
        self.dropout1, self.dropout2 = Dropout(dropout), Dropout(dropout)
        if isinstance(activation, str):
            if activation not in ("relu", "gelu"):
                raise RuntimeError(f"activation should be relu/gelu, not {activation}")
            activation = F.relu if activation == "relu" else F.gelu
        self.activation = activation

    def _sa(self, x, mask, padding, is_causal):
        return self.dropout1(self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False,
                                            is_causal=is_causal)[0])

    def _ff(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff(self.norm2(x))
        x = self.norm1(x + self._sa(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff(x))
