"""Arguments are honoured or refused, never accepted and ignored (issue 13, item 2): every keyword a
PyTorch-named function or class of the package takes either does what PyTorch's does or raises naming
the function and the argument. Keywords PyTorch has and Porta lacks are left out of the signatures, so
Python itself refuses them (TypeError)."""
import os
import warnings

import numpy as np
import pytest

import porta
from porta import nn
from porta.nn import functional as F
from porta.utils.data import DataLoader, TensorDataset


def _loader_data():
    return TensorDataset(porta.arange(8.0).view(4, 2), porta.arange(4))


# ------------------------------------------------------------ tensors


def test_tensor_to_refuses_unknown_keywords_and_memory_format(device):
    x = porta.ones(2, 3)
    with pytest.raises(TypeError, match=r"^to\(\) got an unexpected keyword argument 'devcie'"):
        x.to(devcie=device)  # a typo used to be dropped: the tensor silently stayed on cpu
    with pytest.raises(NotImplementedError, match=r"^to\(\): memory_format= is not supported by Porta"):
        x.to(memory_format="channels_last")


def test_tensor_to_takes_copy_as_the_second_positional_flag(device):
    x = porta.ones(2, 3, device=device)
    y = x.to(device, porta.float32, False, True)  # to(device, dtype, non_blocking, copy), as PyTorch
    assert y is not x
    y.fill_(2.0)
    assert x.tolist() == [[1.0] * 3] * 2  # a copy, sharing nothing
    assert x.to(device, porta.float32, False, False) is x


def test_clone_and_contiguous_refuse_memory_format():
    x = porta.ones(2, 3)
    with pytest.raises(NotImplementedError, match=r"^clone\(\): memory_format= is not supported by Porta"):
        x.clone(memory_format="preserve_format")
    with pytest.raises(NotImplementedError, match=r"^contiguous\(\): memory_format= is not supported by Porta"):
        x.contiguous(memory_format="channels_last")


def test_array_protocol_honours_copy_false():
    x = porta.ones(3)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        x.__array__(np.float64, copy=False)
    assert x.__array__(np.float32, copy=False).dtype == np.float32


# ------------------------------------------------------------ autograd modes


def test_inference_mode_false_leaves_grad_mode_alone():
    x = porta.ones(2, requires_grad=True)
    with porta.inference_mode(False):  # used to act as no_grad
        assert porta.is_grad_enabled()
        assert (x * 2).requires_grad
    with porta.inference_mode():
        assert not porta.is_grad_enabled()
    assert porta.is_grad_enabled()

    @porta.inference_mode
    def bare(t):
        return t * 2

    @porta.inference_mode(False)
    def off(t):
        return t * 2

    assert not bare(x).requires_grad and off(x).requires_grad
    with pytest.raises(TypeError, match=r"^inference_mode\(\): mode must be a bool"):
        porta.inference_mode(1.5)


# ------------------------------------------------------------ nn


def test_sigmoid_and_tanh_take_no_arguments():
    for layer in (nn.Sigmoid, nn.Tanh):  # inplace=True used to be accepted and ignored
        with pytest.raises(TypeError):
            layer(inplace=True)
        with pytest.raises(TypeError):
            layer(True)
    assert nn.Sigmoid()(porta.zeros(2)).tolist() == [0.5, 0.5]
    assert repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"


def test_softmax_without_dim_chooses_as_pytorch():
    x = porta.arange(24.0).view(2, 3, 4) / 10
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        out = nn.Softmax()(x)  # 3-d: dim 0, as PyTorch (it used to be the last dim)
    np.testing.assert_allclose(out.sum(0).numpy(), np.ones((3, 4)), rtol=1e-6)
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        out = nn.LogSoftmax()(x.view(2, 3, 2, 2))  # 4-d: dim 1
    np.testing.assert_allclose(out.exp().sum(1).numpy(), np.ones((2, 2, 2)), rtol=1e-6)
    with pytest.warns(UserWarning):
        assert F.softmax(x[0]).shape == (3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(nn.Softmax(dim=-1)(x).sum(-1).numpy(), np.ones((2, 3)), rtol=1e-6)


def test_losses_take_pytorchs_positional_order_and_refuse_the_legacy_arguments():
    logits, target = porta.zeros(2, 3), porta.tensor([0, 1])
    # F.cross_entropy(input, target, weight, size_average, ...): the fourth used to be ignore_index
    with pytest.raises(NotImplementedError, match=r"^cross_entropy: size_average and reduce are deprecated"):
        F.cross_entropy(logits, target, None, True)
    with pytest.raises(NotImplementedError, match=r"^cross_entropy: size_average and reduce"):
        F.cross_entropy(logits, target, reduce=False)
    with pytest.raises(NotImplementedError, match=r"^mse_loss: size_average and reduce"):
        F.mse_loss(logits, logits, "sum")  # the third is size_average in PyTorch
    with pytest.raises(NotImplementedError, match=r"^mse_loss: weight is not supported by Porta"):
        F.mse_loss(logits, logits, weight=porta.ones(2, 3))
    assert F.cross_entropy(logits, target, None, None, 1).item() == pytest.approx(np.log(3))


def test_kaiming_init_refuses_unknown_modes():
    w = porta.empty(4, 3)
    for init in (nn.init.kaiming_uniform_, nn.init.kaiming_normal_):
        with pytest.raises(ValueError, match=r"Mode fan_avg not supported, please use one of \['fan_in', 'fan_out'\]"):
            init(w, mode="fan_avg")  # used to be taken as fan_out
    nn.init.kaiming_uniform_(w, mode="FAN_OUT", nonlinearity="relu")  # case-insensitive, as PyTorch
    assert float(w.abs().max()) <= np.sqrt(2.0) * np.sqrt(3.0 / 4) + 1e-6


def test_load_state_dict_assign_takes_the_state_dict_tensors():
    m = nn.Linear(2, 2)
    w = m.weight
    sd = {"weight": porta.ones(2, 2), "bias": porta.zeros(2)}
    m.load_state_dict(sd, assign=True)  # used to copy, as assign=False
    assert m.weight is w and m.weight.requires_grad
    assert m.weight.data_ptr() == sd["weight"].data_ptr() and m.bias.data_ptr() == sd["bias"].data_ptr()
    m2 = nn.Linear(2, 2)
    m2.load_state_dict(sd)
    assert m2.weight.data_ptr() != sd["weight"].data_ptr() and m2.weight.tolist() == [[1, 1], [1, 1]]


def test_state_dict_prefix_is_prepended_as_in_pytorch():
    m = nn.Sequential(nn.Linear(2, 2))
    assert list(m.state_dict(prefix="model.")) == ["model.0.weight", "model.0.bias"]
    assert list(m.state_dict(prefix="m_")) == ["m_0.weight", "m_0.bias"]  # used to be "m_.0.weight"


def test_module_to_refuses_unknown_keywords_and_memory_format():
    m = nn.Linear(2, 2)
    with pytest.raises(TypeError, match=r"^Module.to\(\) got an unexpected keyword argument 'copy'"):
        m.to("cpu", copy=True)
    with pytest.raises(NotImplementedError, match=r"^Module.to\(\): memory_format= is not supported by Porta"):
        m.to(memory_format="channels_last")
    assert m.to("cpu", non_blocking=True) is m


# ------------------------------------------------------------ optimizers


def test_optimizers_refuse_differentiable_and_unsupported_group_options():
    p = nn.Parameter(porta.ones(2))
    with pytest.raises(NotImplementedError, match=r"^SGD: differentiable=True is not supported by Porta"):
        porta.optim.SGD([p], lr=0.1, differentiable=True)
    with pytest.raises(NotImplementedError, match=r"^Adam: differentiable=True is not supported by Porta"):
        porta.optim.Adam([p], differentiable=True)
    # per-group options PyTorch honours used to be dropped
    with pytest.raises(NotImplementedError, match=r"^SGD: differentiable=True is not supported by Porta \(in a param"):
        porta.optim.SGD([{"params": [p], "differentiable": True}], lr=0.1)
    with pytest.raises(NotImplementedError, match=r"^AdamW: decoupled_weight_decay=False is not supported"):
        porta.optim.AdamW([{"params": [p], "decoupled_weight_decay": False}])
    opt = porta.optim.Adam([{"params": [p], "amsgrad": False, "foreach": True}], fused=True)
    p.grad = porta.ones(2)
    opt.step()
    assert p.tolist()[0] == pytest.approx(1 - 1e-3)


# ------------------------------------------------------------ DataLoader


def test_dataloader_refuses_the_combinations_pytorch_refuses():
    ds = _loader_data()
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        DataLoader(ds, prefetch_factor=4)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=[3, 2, 1, 0], shuffle=True)
    with pytest.raises(ValueError, match="batch_size=None option disables auto-batching"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="prefetch_factor option should be non-negative"):
        DataLoader(ds, num_workers=1, prefetch_factor=-1)


def test_dataloader_applies_collate_fn_without_batching():
    ds = _loader_data()
    out = list(DataLoader(ds, batch_size=None, collate_fn=lambda sample: int(sample[1])))
    assert out == [0, 1, 2, 3]


def test_persistent_workers_live_across_epochs():
    class Pids(porta.utils.data.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return os.getpid()

    for persistent in (True, False):
        loader = DataLoader(Pids(), batch_size=None, num_workers=1, persistent_workers=persistent)
        epochs = [set(loader) for _ in range(2)]
        assert all(len(e) == 1 and os.getpid() not in e for e in epochs)  # one worker process per epoch
        assert (epochs[0] == epochs[1]) == persistent, (persistent, epochs)
        del loader


# ------------------------------------------------------------ factories and reductions


def test_randint_takes_pytorchs_high_size_form():
    x = porta.randint(10, (3,))  # randint(high, size): used to fail as low=10, high=(3,)
    assert x.shape == (3,) and x.dtype is porta.int64 and all(0 <= v < 10 for v in x.tolist())
    assert porta.randint(2, 5, (4,)).shape == (4,) and porta.randint(10, size=(2, 2)).shape == (2, 2)


def test_max_and_min_refuse_keepdim_without_dim():
    x = porta.arange(6.0).view(2, 3)
    for name in ("max", "min"):
        with pytest.raises(TypeError, match=rf"^{name}\(\): keepdim=True needs dim="):
            getattr(x, name)(keepdim=True)  # used to reduce everything and drop keepdim
    assert x.max(1, keepdim=True).values.tolist() == [[2.0], [5.0]] and x.amax(keepdim=True).shape == (1, 1)
