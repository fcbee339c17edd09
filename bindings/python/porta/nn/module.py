"""nn.Module: parameters, buffers and submodules registered by attribute
assignment, in-place device moves, train/eval, state dicts."""
from collections import OrderedDict, namedtuple

from .. import _device, _dtype
from .._errors import DeviceMismatchError, InvalidArgumentError, ShapeError, check
from .._factories import tensor
from .._lib import fn
from .._tensor import Tensor, _parse_to_args, cuda_device
from ..autograd import no_grad
from . import _module_hooks
from .parameter import Parameter

IncompatibleKeys = namedtuple("IncompatibleKeys", "missing_keys unexpected_keys")


class Module:
    """Base class of every layer and model, as torch.nn.Module."""

    training = True

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"Module.__init__() takes no arguments (got {args} {kwargs})")
        d = self.__dict__
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers"] = set()  # buffers state_dict leaves out
        d["_modules"] = OrderedDict()
        d["training"] = True
        d["_path"] = ""

    # ------------------------------------------------------------ registration

    def _registry(self, name):
        reg = self.__dict__.get(name)
        if reg is None:
            raise AttributeError(f"cannot assign parameters or modules before Module.__init__() call "
                                 f"(add super().__init__() to {type(self).__name__}.__init__)")
        return reg

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            self._forget(name)
            self._registry("_parameters")[name] = value
        elif isinstance(value, Module):
            self._forget(name)
            self._registry("_modules")[name] = value
            value._set_path(f"{d['_path']}.{name}" if d.get("_path") else name)
        elif name in d.get("_parameters", ()):
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(porta.nn.Parameter or None expected)")
            d["_parameters"][name] = None
        elif name in d.get("_modules", ()):
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module '{name}' "
                                "(porta.nn.Module or None expected)")
            d["_modules"][name] = None
        elif name in d.get("_buffers", ()):
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        d = self.__dict__
        d.pop(name, None)
        for reg in ("_parameters", "_buffers", "_modules"):
            d.get(reg, {}).pop(name, None)
        d.get("_non_persistent_buffers", set()).discard(name)

    def __getattr__(self, name):
        d = self.__dict__
        for reg in ("_parameters", "_buffers", "_modules"):
            r = d.get(reg)
            if r is not None and name in r:
                return r[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        d = self.__dict__
        for reg in ("_parameters", "_buffers", "_modules"):
            if name in d.get(reg, ()):
                del d[reg][name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        d = self.__dict__
        return sorted(set(super().__dir__()) | set(d.get("_parameters", ())) | set(d.get("_buffers", ())) |
                      set(d.get("_modules", ())))

    def _check_name(self, name, what, registry):
        """PyTorch's rules for a registered name: a non-empty str without '.', not another attribute."""
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{what} name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__.get(registry, {}):
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        """Registers `param` (a Parameter or None) under `name`."""
        self._check_name(name, "parameter", "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' (porta.nn.Parameter "
                            "or None required)")
        if param is None:
            self._forget(name)
            self._registry("_parameters")[name] = None
        else:
            self.__setattr__(name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """Registers a tensor that is state but not a parameter: moved by to(), and saved in
        state_dict unless persistent=False."""
        self._check_name(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' (porta.Tensor or None "
                            "required)")
        self._forget(name)
        self._registry("_buffers")[name] = tensor
        if not persistent:
            self.__dict__["_non_persistent_buffers"].add(name)

    def add_module(self, name, module):
        """Registers a child module (or None) under `name`."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module", "_modules")
        self.__setattr__(name, module)

    register_module = add_module

    def _set_path(self, path):
        self.__dict__["_path"] = path
        for name, child in self.__dict__.get("_modules", {}).items():
            if child is not None:
                child._set_path(f"{path}.{name}")

    # ------------------------------------------------------------ traversal

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module and every descendant, each once (remove_duplicate=False: a module
        reached by several paths under each of them, as state_dict lists it)."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def get_submodule(self, target):
        """The module at dotted path `target` ("" is self); AttributeError naming what is missing."""
        m = self
        for part in target.split(".") if target else []:
            child = m._modules.get(part) if isinstance(m, Module) else None
            if child is None:
                raise AttributeError(f"{type(m).__name__} has no attribute `{part}`")
            m = child
        return m

    def get_parameter(self, target):
        """The parameter at dotted path `target` (module path, then the parameter's name)."""
        path, _, name = target.rpartition(".")
        m = self.get_submodule(path)
        if name not in m._parameters or m._parameters[name] is None:
            raise AttributeError(f"{type(m).__name__} has no parameter `{name}`")
        return m._parameters[name]

    def get_buffer(self, target):
        """The buffer at dotted path `target` (module path, then the buffer's name)."""
        path, _, name = target.rpartition(".")
        m = self.get_submodule(path)
        if name not in m._buffers:
            raise AttributeError(f"{type(m).__name__} has no buffer `{name}`")
        return m._buffers[name]

    def modules(self):
        """This module and every descendant."""
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        """(name, module) of the direct children."""
        for name, child in self._modules.items():
            if child is not None:
                yield name, child

    def children(self):
        """The direct children."""
        for _, child in self.named_children():
            yield child

    def _named(self, registry, prefix, recurse):
        seen = set()
        mods = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, m in mods:
            for name, t in getattr(m, registry).items():
                if t is None or id(t) in seen:
                    continue
                seen.add(id(t))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), t

    def named_parameters(self, prefix="", recurse=True):
        """(dotted name, Parameter) of this module and its descendants, in registration order."""
        return self._named("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        """The parameters (what optimizers take)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True):
        """(dotted name, buffer) of this module and its descendants."""
        return self._named("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        """The buffers."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn_):
        """Calls fn_(module) on every descendant, then on self; returns self."""
        for child in self.children():
            child.apply(fn_)
        fn_(self)
        return self

    # ------------------------------------------------------------ calling

    def forward(self, *args, **kwargs):
        """The module's computation; subclasses define it."""
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        hooks = self.__dict__.get("_forward_hooks")
        if not hooks:
            return self.forward(*args, **kwargs)
        return _module_hooks.call_with_hooks(self, hooks, args, kwargs)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) (with_kwargs: hook(module, args, kwargs)) runs before forward and may return
        new args (with_kwargs: (args, kwargs)); returns a handle whose remove() unregisters it."""
        return _module_hooks.register(self, "pre", hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output) (with_kwargs: hook(module, args, kwargs, output)) runs after forward
        and may return a new output; returns a handle whose remove() unregisters it."""
        if always_call:
            raise NotImplementedError("register_forward_hook(always_call=True) is not supported by Porta yet: "
                                      "the hook runs only when forward returns")
        return _module_hooks.register(self, "post", hook, prepend, with_kwargs)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) runs when the gradients of the module's tensor inputs are
        computed (grad_input: one per positional tensor argument, None where none flows) and may return a new
        grad_input (for a module with one input that takes a gradient); returns a removable handle."""
        return _module_hooks.register(self, "backward", hook, prepend, False)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) runs when the gradient of the module's output arrives and may return a
        new grad_output; returns a removable handle."""
        return _module_hooks.register(self, "backward_pre", hook, prepend, False)

    def register_backward_hook(self, hook):
        raise NotImplementedError(_module_hooks.NO_LEGACY_BACKWARD_HOOK)

    def _check_input_device(self, x, weight):
        """Raises DeviceMismatchError naming this layer, both devices and the fix when
        `x` is not on the device of `weight` (as bindings/cpp/porta/nn.hpp)."""
        a, b = x.dl_device, weight.dl_device
        if a.device_type == b.device_type and a.device_id == b.device_id:
            return
        mine, theirs = _device.from_dl(b), _device.from_dl(a)
        path = self.__dict__.get("_path")
        raise DeviceMismatchError(
            f"{type(self).__name__}({self.extra_repr()}){f' {path!r}' if path else ''}: the input is on {theirs} "
            f"but the layer's parameters are on {mine}. Data and model must share a device: move the input with "
            f"x.to('{mine}') or the model with model.to('{theirs}')")

    # ------------------------------------------------------------ devices and modes

    def to(self, *args, **kwargs):
        """Moves every parameter and buffer to a device, and casts the floating ones to a floating dtype, in
        place (each keeps its identity, so optimizers built earlier still hold them; an optimizer that has
        stepped refuses a parameter whose dtype changed); returns self. Gradients are cast with their
        parameters, as PyTorch's. The moves are synchronous, which non_blocking=True (a hint) allows;
        memory_format= and other keywords are refused."""
        dev, dt = _parse_to_args(args, kwargs, "Module.to")
        if dt is not None:
            if not dt.is_floating_point:
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                                f"dtype=porta.{dt.name}")
            self._cast(dt, only_floating=True)
        tensors = list(self.parameters()) + list(self.buffers())
        if dev is not None and tensors:
            target = _device.resolve(dev)
            for t in tensors:
                check(fn.porta_tensor_move_to(t._h, target), f"{type(self).__name__}.to({dev})")
        return self

    def _cast(self, dt, only_floating):
        """Parameters and buffers (the floating ones only, or all) to dt in place, a parameter's gradient with
        it, each tensor keeping its identity (t.data = ..., porta_tensor_set_data)."""
        for t in list(self.parameters()) + list(self.buffers()):
            if t.dtype is not dt and (t.is_floating_point() or not only_floating):
                grad = t.grad
                with no_grad():
                    t.data = t.detach().to(dt)
                if grad is not None:
                    t.grad = grad.to(dt)

    def double(self):
        """Casts the floating parameters and buffers to float64; returns self."""
        self._cast(_dtype.float64, only_floating=True)
        return self

    def float(self):
        """Casts the floating parameters and buffers to float32; returns self."""
        self._cast(_dtype.float32, only_floating=True)
        return self

    def half(self):
        """Casts the floating parameters and buffers to float16; returns self."""
        self._cast(_dtype.float16, only_floating=True)
        return self

    def bfloat16(self):
        """Casts the floating parameters and buffers to bfloat16; returns self."""
        self._cast(_dtype.bfloat16, only_floating=True)
        return self

    def type(self, dst_type):
        """Casts every parameter and buffer to dst_type (a dtype, or a tensor type name such as
        'torch.FloatTensor', as Tensor.type takes); returns self."""
        dt = _dtype.from_tensor_type_name(dst_type) if isinstance(dst_type, str) else _dtype.resolve(dst_type)
        self._cast(dt, only_floating=False)
        return self

    def cuda(self, device=None):
        """Moves the module to a CUDA device (default cuda:0); raises when there is none."""
        return self.to(cuda_device(device, f"{type(self).__name__}.cuda()"))

    def cpu(self):
        """Moves the module to the CPU."""
        return self.to(_device.CPU)

    def train(self, mode=True):
        """Training mode (affects Dropout), recursively; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            m.__dict__["training"] = mode
        return self

    def eval(self):
        """Evaluation mode; returns self."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Sets requires_grad of every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Clears every parameter's gradient."""
        for p in self.parameters():
            if set_to_none or p.grad is None:
                p.grad = None
            else:
                with no_grad():
                    p.grad.zero_()

    # ------------------------------------------------------------ state

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """OrderedDict of dotted name -> tensor (detached views of parameters and buffers, or the tensors
        themselves with keep_vars); each key is `prefix` + the dotted name, as in PyTorch (prefix="model."
        gives "model.0.weight")."""
        out = OrderedDict() if destination is None else destination
        for mod_prefix, m in self.named_modules(remove_duplicate=False):  # a shared module under each name
            for reg in ("_parameters", "_buffers"):
                for name, t in getattr(m, reg).items():
                    if t is not None and not (reg == "_buffers" and name in m._non_persistent_buffers):
                        key = f"{mod_prefix}.{name}" if mod_prefix else name
                        out[prefix + key] = t if keep_vars else t.detach()
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies values (from any device) into the parameters and buffers; with strict, every
        name must match. Shapes must agree. assign=True makes each parameter and buffer take the state
        dict tensor's storage, device and dtype instead of copying (as PyTorch's assign; here each keeps
        its identity and requires_grad, so an optimizer built earlier still holds it)."""
        mine = self.state_dict(keep_vars=True)
        missing = [k for k in mine if k not in state_dict]
        unexpected = [k for k in state_dict if k not in mine]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing))
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected))
            raise InvalidArgumentError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" +
                                       ".\n\t".join(parts) + ".")
        with no_grad():
            for name, t in mine.items():
                if name not in state_dict:
                    continue
                src = state_dict[name]
                if not isinstance(src, Tensor):
                    src = tensor(src)
                if src.shape != t.shape:
                    raise ShapeError(f"load_state_dict: '{name}' has shape {list(src.shape)} in the state dict "
                                     f"but {list(t.shape)} in the model")
                if assign:
                    t.data = src  # shares src's storage (porta_tensor_set_data)
                else:
                    t.copy_(src)
        return IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------ printing

    def extra_repr(self):
        """The layer's settings, shown inside its repr."""
        return ""

    def __repr__(self):
        """PyTorch's layout: a one-line extra_repr inline; otherwise its lines, then the children, indented."""
        lines = []
        for name, child in self._modules.items():
            text = repr(child).replace("\n", "\n  ")
            lines.append(f"({name}): {text}")
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        if not lines and len(extra_lines) <= 1:
            return f"{type(self).__name__}({extra})"
        body = "\n  ".join(extra_lines + lines)
        return f"{type(self).__name__}(\n  {body}\n)"
